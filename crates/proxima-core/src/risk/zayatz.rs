//! Zayatz's model of population uniques (Zayatz 1991, "Estimation of the
//! percent of unique population elements on a microdata file using the
//! sample", US Census Bureau SRD Research Report CENSUS/SRD/RR-91/08; as
//! ARX's `ModelZayatz` implements it).
//!
//! Take the sample's class-size distribution as the prior for the size of
//! a population class: P(size i) = f_i / u. A population class of size i,
//! sampled without replacement (n of N records), leaves exactly one record
//! in the sample with the hypergeometric probability
//!
//! h(i) = C(i,1)·C(N−i, n−1) / C(N, n)
//!      = i·(n/N)·Π_{k=1}^{i−1} (N−n−k+1)/(N−k),
//!
//! so h(1) = n/N = π. By Bayes, a sample unique is a population unique
//! with probability
//!
//! P(pop. unique | sample unique) = (f₁/u)·h(1) / Σ_i (f_i/u)·h(i),
//!
//! and the estimated number of population uniques is
//! f₁ · P(pop. unique | sample unique) / π.
//!
//! ARX evaluates h with Apache Commons' hypergeometric distribution after
//! casting N and n to `int` (clipping N above 2³¹−1, a bug it notes); the
//! product above is exact for any N and costs O(largest class).

use super::classes::ClassSizes;
use super::estimate::Estimate;

/// Zayatz's estimate of the number of population uniques.
pub fn zayatz(classes: &ClassSizes, population_size: f64) -> Estimate {
    let c1 = classes.classes_of_size(1) as f64;
    if c1 == 0.0 {
        return Estimate::Uniques(0.0);
    }
    match conditional_uniqueness(classes, population_size) {
        Some(p) => {
            // c1·p·N/n, multiplied before dividing (c1/(n/N) rounds up past
            // N when every record is unique and p = 1), and never above N.
            let records = classes.records() as f64;
            Estimate::Uniques((c1 * p * population_size / records).min(population_size))
        }
        None => Estimate::Undefined,
    }
}

/// P(population unique | sample unique), as above; `None` when the sample
/// is empty or larger than the population.
pub fn conditional_uniqueness(classes: &ClassSizes, population_size: f64) -> Option<f64> {
    let n = classes.records() as f64;
    let big_n = population_size;
    if n == 0.0 || n > big_n {
        return None;
    }
    let u = classes.classes() as f64;
    // ln Π_{k=1}^{i−1} (N−n−k+1)/(N−k), extended one factor at a time as
    // the sizes ascend. A factor ≤ 0 (a class larger than N−n+1 cannot
    // leave a single record) makes h(i) = 0 for that size and all larger.
    let mut ln_product = 0.0;
    let mut k_done = 0usize;
    let mut zero = false;
    let mut denominator = 0.0;
    let mut numerator = 0.0;
    for &(size, count) in classes.entries() {
        while k_done + 1 < size && !zero {
            let k = (k_done + 1) as f64;
            // (N−n−k+1)/(N−k) = 1 − (n−1)/(N−k), kept precise for N ≫ n.
            let drop = (n - 1.0) / (big_n - k);
            if drop >= 1.0 || big_n - k <= 0.0 {
                zero = true;
            } else {
                ln_product += (-drop).ln_1p();
            }
            k_done += 1;
        }
        let h = if zero {
            0.0
        } else {
            size as f64 * (n / big_n) * ln_product.exp()
        };
        denominator += count as f64 / u * h;
        if size == 1 {
            numerator = count as f64 / u * h;
        }
    }
    (denominator > 0.0).then(|| numerator / denominator)
}
