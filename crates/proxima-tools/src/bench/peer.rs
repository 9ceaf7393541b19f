//! A peer measured beside us, pair by pair: each pair's figures, the
//! ratios and their medians, as the JSON document keeps them; and the
//! tables the ARX cases run on (the cases name them; `arx` runs them).

use serde::{Deserialize, Serialize};

use super::stats::Stats;

/// The table an ARX case runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArxTable {
    /// adult_full_synthetic_600k (side_by_side.py `--case 600k`): 8 QIs
    /// with adult_full's hierarchies, the peers' schema
    /// `adult_full_600k.schema.json`.
    Adult600k,
    /// adult (side_by_side.py `--case adult`): 8 QIs with adult's
    /// hierarchies, `examples/adult.schema.json`.
    Adult,
}

impl ArxTable {
    pub fn qis(self) -> &'static [&'static str] {
        match self {
            ArxTable::Adult600k => &[
                "age",
                "workclass",
                "education",
                "marital-status",
                "relationship",
                "race",
                "sex",
                "native-country",
            ],
            ArxTable::Adult => &[
                "sex",
                "age",
                "race",
                "marital-status",
                "education",
                "native-country",
                "workclass",
                "occupation",
            ],
        }
    }

    /// The hierarchy file of `column`, relative to the shared data folder.
    pub fn hierarchy(self, column: &str) -> String {
        match self {
            ArxTable::Adult600k => format!("adult_full/adult_full_hierarchy_{column}.csv"),
            ArxTable::Adult => format!("adult/adult_hierarchy_{column}.csv"),
        }
    }
}

/// One pair's figures, in seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeerPair {
    /// ARX's JVM from spawn to exit (all its repetitions).
    pub arx_whole_s: f64,
    /// The median of ARX's warm repetitions: load + anonymize + write.
    pub arx_warm_total_s: f64,
    /// The median of ARX's warm repetitions: `ARXAnonymizer.anonymize` alone.
    pub arx_warm_anonymize_s: f64,
    /// `proxima anonymize` from spawn to exit.
    pub proxima_whole_s: f64,
    /// The median of our partition's timed runs (`run::place`, in-process).
    pub proxima_partition_s: f64,
    /// The 1-minute load average after the pair.
    pub load1: Option<f64>,
}

/// ARX / Proxima: above 1, Proxima is faster.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PeerRatios {
    /// ARX's whole process / Proxima's whole process.
    pub whole: f64,
    /// ARX's warm pipeline (load + anonymize + write in a warm JVM) /
    /// Proxima's whole process.
    pub warm: f64,
    /// ARX's warm anonymize step / our partition step.
    pub anonymize: f64,
}

impl PeerPair {
    pub fn ratios(&self) -> PeerRatios {
        PeerRatios {
            whole: self.arx_whole_s / self.proxima_whole_s,
            warm: self.arx_warm_total_s / self.proxima_whole_s,
            anonymize: self.arx_warm_anonymize_s / self.proxima_partition_s,
        }
    }
}

/// The median of each ratio over the pairs (each pair's ratio first, as
/// the pairs alternate under the same load); `None` without pairs.
pub fn median_ratios(pairs: &[PeerPair]) -> Option<PeerRatios> {
    let r: Vec<PeerRatios> = pairs.iter().map(PeerPair::ratios).collect();
    let med = |f: fn(&PeerRatios) -> f64| Stats::of(&r.iter().map(f).collect::<Vec<_>>());
    Some(PeerRatios {
        whole: med(|r| r.whole)?.median,
        warm: med(|r| r.warm)?.median,
        anonymize: med(|r| r.anonymize)?.median,
    })
}

/// A peer case's figures in the JSON document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeerFigures {
    pub peer: String,
    /// The timed pairs, in the order run.
    pub pairs: Vec<PeerPair>,
    /// The medians of the pairs' ratios.
    pub ratios: Option<PeerRatios>,
}
