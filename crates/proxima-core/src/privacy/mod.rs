//! Group-level privacy measures over one sensitive attribute, shared by the
//! Mondrian constraints and the audits.
//!
//! Everything works from value counts: [`SaCodes`] maps each row's SA value
//! to a dense code (codes ordered by value for a numeric SA, by depth-first
//! leaf rank for a categorical one), and [`GroupCounts`] is a group's sparse,
//! code-sorted (code, count) list. Building it is O(|G| log |G|); every
//! measure below is then O(distinct values in the group) (times a log or the
//! hierarchy height), so Mondrian can test both halves of a cut cheaply.

mod counts;
mod diversity;
mod emd;

pub use counts::{GroupCounts, SaCodes};
pub use diversity::{
    achieved_l, distinct, entropy, entropy_l, is_l_diverse, max_frequency, max_recursive_l,
    recursive_cl, satisfies_entropy,
};
pub use emd::EmdReference;
