//! Where the judging of the candidate sets writes its figures, and the
//! figures it hands to [`super::view_check`].
//!
//! When every row is the victim of exactly one set
//! ([`CandidateSets::once`]: victims at their original points, a job's
//! release) nothing is table-sized per thread: a check whose figure is the
//! set's own (k, l, α, t: its size or SA multiset) keeps one figure per
//! set, and a check on each victim's neighbourhood ((ε,m), dissimilarity,
//! (δ,l)) one per victim, in the order of the sets' victim lists. The
//! threads write disjoint runs of one array. Rows of several sets (an
//! uploaded table's victims at any point of their box) keep a per-row
//! tally per thread, combined in set order.

use super::candidates::CandidateSets;
use crate::error::CoreResult;

// `Worse` lives here, not beside the checks in `measure`, so that the
// judging's store does not depend on the checks that use it.
/// Which direction of a figure is worse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Worse {
    Higher,
    Lower,
}

impl Worse {
    /// True when `a` is strictly worse than `b`.
    #[inline]
    pub fn worse(self, a: f64, b: f64) -> bool {
        match self {
            Worse::Higher => a > b,
            Worse::Lower => a < b,
        }
    }
}

/// One victim's judgement so far, kept together: victims of one set are
/// scattered over the table, and one cache line per victim beats three.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Verdict {
    figure: f64,
    /// `u32::MAX` until a set judged the victim.
    set: u32,
    over: bool,
}

/// Per row, the worst figure over the sets judged so far.
pub(crate) struct Tally {
    rows: Vec<Verdict>,
}

impl Tally {
    pub fn new(n: usize) -> Self {
        Tally {
            rows: vec![
                Verdict {
                    figure: f64::NAN,
                    set: u32::MAX,
                    over: false,
                };
                n
            ],
        }
    }

    /// Adds the judgements of later sets (`later` judged sets after all of
    /// this one's): the worse figure wins, this one's on a tie.
    pub fn absorb(&mut self, later: Tally, worse: Worse) {
        for (r, v) in later.rows.iter().enumerate() {
            if v.set != u32::MAX {
                self.record(worse, r as u32, v.set as usize, v.figure, v.over);
            }
        }
    }

    #[inline]
    fn record(&mut self, worse: Worse, row: u32, set: usize, figure: f64, over: bool) {
        let v = &mut self.rows[row as usize];
        v.over |= over;
        if v.set == u32::MAX || worse.worse(figure, v.figure) {
            v.figure = figure;
            v.set = set as u32;
        }
    }
}

/// Where one run of sets writes its judgements.
pub(crate) enum Out<'a> {
    /// Rows of several sets: a per-row tally.
    Rows(Tally),
    /// Every row in one set: this run's slots of the shared arrays, one
    /// per set (`per_victim` false) or per victim position, the first at
    /// index `base`.
    Slots {
        per_victim: bool,
        base: usize,
        figure: &'a mut [f64],
        over: &'a mut [bool],
    },
}

impl Out<'_> {
    /// The figure of set `s`, the same for every one of its victims.
    #[inline]
    pub fn set(&mut self, worse: Worse, sets: &CandidateSets, s: usize, figure: f64, over: bool) {
        match self {
            Out::Rows(tally) => {
                for &v in sets.victims(s) {
                    tally.record(worse, v, s, figure, over);
                }
            }
            Out::Slots {
                per_victim: false,
                base,
                figure: f,
                over: o,
            } => {
                f[s - *base] = figure;
                o[s - *base] = over;
            }
            Out::Slots {
                per_victim: true,
                base,
                figure: f,
                over: o,
            } => {
                let from = sets.victim_start(s) - *base;
                let to = from + sets.victims(s).len();
                f[from..to].fill(figure);
                o[from..to].fill(over);
            }
        }
    }

    /// The figure of the `i`-th victim `v` of set `s`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn victim(
        &mut self,
        worse: Worse,
        sets: &CandidateSets,
        s: usize,
        i: usize,
        v: u32,
        figure: f64,
        over: bool,
    ) {
        match self {
            Out::Rows(tally) => tally.record(worse, v, s, figure, over),
            Out::Slots {
                per_victim: true,
                base,
                figure: f,
                over: o,
            } => {
                let p = sets.victim_start(s) + i - *base;
                f[p] = figure;
                o[p] = over;
            }
            Out::Slots {
                per_victim: false, ..
            } => unreachable!("a per-victim figure needs per-victim slots"),
        }
    }
}

/// Every victim's figure: the worst over its candidate sets.
pub(crate) struct Judged {
    figures: Figures,
    /// (ε,m) only: the least ⌊|C|/x⌋ over every victim and candidate set
    /// (`None` without victims).
    pub achieved_m: Option<usize>,
}

enum Figures {
    /// Every row in one set; the figure and verdict of each set.
    Sets { figure: Vec<f64>, over: Vec<bool> },
    /// Every row in one set; per position of the sets' victim lists.
    Victims { figure: Vec<f64>, over: Vec<bool> },
    /// Per row, the worst over its sets (the first such set on a tie).
    Rows(Tally),
}

impl Judged {
    /// Figures per set or per victim position, as [`Out::Slots`] wrote them.
    pub fn slots(
        per_victim: bool,
        figure: Vec<f64>,
        over: Vec<bool>,
        achieved_m: Option<usize>,
    ) -> Judged {
        let figures = if per_victim {
            Figures::Victims { figure, over }
        } else {
            Figures::Sets { figure, over }
        };
        Judged {
            figures,
            achieved_m,
        }
    }

    pub fn rows(tally: Tally, achieved_m: Option<usize>) -> Judged {
        Judged {
            figures: Figures::Rows(tally),
            achieved_m,
        }
    }

    /// Calls `f(row, set, figure, over)` once per row of the table (the
    /// set that gives the row's figure; `u32::MAX` as usize for a row no
    /// set judged), in no particular row order.
    pub fn each(&self, sets: &CandidateSets, mut f: impl FnMut(u32, usize, f64, bool)) {
        let all: CoreResult<()> = self.try_each(sets, |r, s, x, o| {
            f(r, s, x, o);
            Ok(())
        });
        all.expect("never fails")
    }

    /// [`Judged::each`], stopping at `f`'s first error (a cancellation
    /// checkpoint's).
    pub fn try_each(
        &self,
        sets: &CandidateSets,
        mut f: impl FnMut(u32, usize, f64, bool) -> CoreResult<()>,
    ) -> CoreResult<()> {
        match &self.figures {
            Figures::Sets { figure, over } => {
                for s in 0..sets.len() {
                    for &v in sets.victims(s) {
                        f(v, s, figure[s], over[s])?;
                    }
                }
            }
            Figures::Victims { figure, over } => {
                for s in 0..sets.len() {
                    let base = sets.victim_start(s);
                    for (i, &v) in sets.victims(s).iter().enumerate() {
                        f(v, s, figure[base + i], over[base + i])?;
                    }
                }
            }
            Figures::Rows(tally) => {
                for (r, v) in tally.rows.iter().enumerate() {
                    f(r as u32, v.set as usize, v.figure, v.over)?;
                }
            }
        }
        Ok(())
    }

    /// [`Judged::try_each`] by runs of victims that share their figure,
    /// verdict and set: `f(set, figure, over, victims)` once per set when
    /// the figures are the sets' own, else once per victim. Every row is
    /// in exactly one run, as in `try_each`; a caller whose work per
    /// victim is the same for the whole run does it once.
    pub fn try_each_run(
        &self,
        sets: &CandidateSets,
        mut f: impl FnMut(usize, f64, bool, &[u32]) -> CoreResult<()>,
    ) -> CoreResult<()> {
        match &self.figures {
            Figures::Sets { figure, over } => {
                for s in 0..sets.len() {
                    f(s, figure[s], over[s], sets.victims(s))?;
                }
                Ok(())
            }
            Figures::Victims { .. } | Figures::Rows(_) => {
                self.try_each(sets, |r, s, x, o| f(s, x, o, &[r]))
            }
        }
    }

    /// Per row: the figure, the verdict and the set giving the figure
    /// (NaN, false and `u32::MAX` for a row no set judged).
    pub fn by_row(&self, sets: &CandidateSets, rows: usize) -> (Vec<f64>, Vec<bool>, Vec<u32>) {
        let mut figure = vec![f64::NAN; rows];
        let mut over = vec![false; rows];
        let mut set = vec![u32::MAX; rows];
        self.each(sets, |r, s, f, o| {
            figure[r as usize] = f;
            over[r as usize] = o;
            set[r as usize] = s as u32;
        });
        (figure, over, set)
    }
}
