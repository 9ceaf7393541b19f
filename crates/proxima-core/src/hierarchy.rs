//! Generalization hierarchies for categorical values.
//!
//! A hierarchy is a tree given as one path per leaf, `leaf; level1; …; root`
//! (ARX's format). Level 0 holds the leaves, level `height()` the single
//! root. A node is identified by its label *within its level*: two leaves
//! that share a label at level i must share every label above it ("no leaf
//! has two parents at a level"). Leaves are numbered (codes) in the order of
//! their first path; [`Hierarchy::leaf_rank`] gives a depth-first order in
//! which every subtree's leaves are contiguous (used for ordered ground
//! distances and Mondrian cuts).

use std::collections::HashMap;

/// Label → id. Looked up once per categorical cell of every upload: a
/// fast hasher seeded per process (foldhash) rather than SipHash.
pub(crate) type LabelMap = HashMap<String, u32, foldhash::fast::RandomState>;

use crate::error::{CoreError, CoreResult, ErrorKind};

mod leaf_index;
use leaf_index::LeafIndex;

#[derive(Debug, Clone, PartialEq)]
pub struct Hierarchy {
    /// labels[level][node]
    labels: Vec<Vec<String>>,
    /// parent[level][node] = node id at level + 1 (empty for the root level).
    parent: Vec<Vec<u32>>,
    /// anc[level][leaf] = the leaf's ancestor id at that level.
    anc: Vec<Vec<u32>>,
    /// leaves_under[level][node] = number of leaves in the node's subtree.
    leaves_under: Vec<Vec<u32>>,
    /// children[level][node] = child node ids at level − 1 (empty at level 0).
    children: Vec<Vec<Vec<u32>>>,
    /// leaf label → leaf code.
    leaf_index: LeafIndex,
    /// leaf_rank[leaf] = position of the leaf in depth-first order.
    leaf_rank: Vec<u32>,
    /// leaf_at_rank[rank] = the leaf at that depth-first position.
    leaf_at_rank: Vec<u32>,
    /// first_rank[level][node] = the smallest leaf rank in the subtree.
    first_rank: Vec<Vec<u32>>,
}

fn invalid(message: String) -> CoreError {
    CoreError::new(ErrorKind::InvalidHierarchy, message)
}

impl Hierarchy {
    /// Builds and validates a hierarchy from its leaf-to-root paths.
    ///
    /// Errors (kind `invalid_hierarchy`) name the offending value: paths of
    /// different lengths, fewer than two levels, several roots, a leaf listed
    /// twice with different parents, a node with two parents.
    pub fn from_paths(paths: &[Vec<String>]) -> CoreResult<Hierarchy> {
        let Some(first) = paths.first() else {
            return Err(invalid("the hierarchy is empty".into()));
        };
        let levels = first.len();
        if levels < 2 {
            return Err(invalid(format!(
                "the hierarchy row for '{}' has {} level(s); at least a leaf and a root are needed",
                first.first().map(String::as_str).unwrap_or(""),
                levels
            )));
        }
        let root = &first[levels - 1];
        let mut labels: Vec<Vec<String>> = vec![Vec::new(); levels];
        let mut ids: Vec<LabelMap> = vec![LabelMap::default(); levels];
        let mut parent: Vec<Vec<u32>> = vec![Vec::new(); levels];
        let mut anc: Vec<Vec<u32>> = vec![Vec::new(); levels];
        let mut seen_leaf_paths: HashMap<String, usize> = HashMap::new();

        for (row, path) in paths.iter().enumerate() {
            if path.len() != levels {
                return Err(invalid(format!(
                    "the hierarchy row for '{}' has {} levels, the first row has {}",
                    path.first().map(String::as_str).unwrap_or(""),
                    path.len(),
                    levels
                )));
            }
            if &path[levels - 1] != root {
                return Err(invalid(format!(
                    "the hierarchy has two roots: '{}' (for '{}') and '{}'",
                    root,
                    first[0],
                    path[levels - 1]
                )));
            }
            if let Some(&prev) = seen_leaf_paths.get(&path[0]) {
                if &paths[prev] == path {
                    continue; // an exact duplicate row is harmless
                }
                return Err(invalid(format!(
                    "the leaf '{}' is listed twice with different ancestors",
                    path[0]
                )));
            }
            seen_leaf_paths.insert(path[0].clone(), row);
            // Register nodes bottom-up and check each has one parent.
            let mut node_ids = Vec::with_capacity(levels);
            for (level, label) in path.iter().enumerate() {
                let id = match ids[level].get(label) {
                    Some(&id) => id,
                    None => {
                        let id = labels[level].len() as u32;
                        labels[level].push(label.clone());
                        ids[level].insert(label.clone(), id);
                        parent[level].push(u32::MAX);
                        id
                    }
                };
                node_ids.push(id);
            }
            for level in 0..levels - 1 {
                let (id, up) = (node_ids[level], node_ids[level + 1]);
                let p = &mut parent[level][id as usize];
                if *p == u32::MAX {
                    *p = up;
                } else if *p != up {
                    return Err(invalid(format!(
                        "'{}' at level {} has two parents: '{}' and '{}'",
                        path[level],
                        level,
                        labels[level + 1][*p as usize],
                        labels[level + 1][up as usize]
                    )));
                }
            }
            for (level, id) in node_ids.into_iter().enumerate() {
                anc[level].push(id);
            }
        }
        parent[levels - 1].clear();

        let mut leaves_under: Vec<Vec<u32>> = labels.iter().map(|l| vec![0; l.len()]).collect();
        for level in 0..levels {
            for &node in &anc[level] {
                leaves_under[level][node as usize] += 1;
            }
        }
        let mut children: Vec<Vec<Vec<u32>>> =
            labels.iter().map(|l| vec![Vec::new(); l.len()]).collect();
        for level in 0..levels - 1 {
            for (node, &p) in parent[level].iter().enumerate() {
                children[level + 1][p as usize].push(node as u32);
            }
        }
        // Depth-first leaf order, children in order of first appearance.
        let mut leaf_rank = vec![0u32; labels[0].len()];
        let mut next = 0u32;
        let mut stack = vec![(levels - 1, 0u32)];
        while let Some((level, node)) = stack.pop() {
            if level == 0 {
                leaf_rank[node as usize] = next;
                next += 1;
            } else {
                for &c in children[level][node as usize].iter().rev() {
                    stack.push((level - 1, c));
                }
            }
        }
        let mut leaf_at_rank = vec![0u32; leaf_rank.len()];
        for (leaf, &rank) in leaf_rank.iter().enumerate() {
            leaf_at_rank[rank as usize] = leaf as u32;
        }
        let mut first_rank: Vec<Vec<u32>> =
            labels.iter().map(|l| vec![u32::MAX; l.len()]).collect();
        for level in 0..levels {
            for (leaf, &node) in anc[level].iter().enumerate() {
                let f = &mut first_rank[level][node as usize];
                *f = (*f).min(leaf_rank[leaf]);
            }
        }
        let mut leaf_index = LeafIndex::default();
        for (code, label) in labels[0].iter().enumerate() {
            leaf_index.insert(label, code as u32);
        }
        Ok(Hierarchy {
            labels,
            parent,
            anc,
            leaves_under,
            children,
            leaf_index,
            leaf_rank,
            leaf_at_rank,
            first_rank,
        })
    }

    /// The hierarchy of a categorical column without one: every leaf directly
    /// under `*`, so the ancestor of two different values is `*`.
    pub fn flat<I, S>(values: I) -> Hierarchy
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut seen = std::collections::HashSet::new();
        let mut paths = Vec::new();
        for v in values {
            let v = v.as_ref();
            if seen.insert(v.to_string()) {
                paths.push(vec![v.to_string(), "*".to_string()]);
            }
        }
        if paths.is_empty() {
            paths.push(vec!["*".to_string(), "*".to_string()]);
        }
        // A leaf literally named "*" would collide with the root label at
        // another level only, which is allowed (nodes are per level).
        Hierarchy::from_paths(&paths).expect("a flat hierarchy is always valid")
    }

    /// Number of levels above the leaves (root level index).
    pub fn height(&self) -> usize {
        self.labels.len() - 1
    }

    pub fn leaf_count(&self) -> usize {
        self.labels[0].len()
    }

    /// The code of a leaf label, if it is a leaf.
    pub fn leaf_code(&self, label: &str) -> Option<u32> {
        self.leaf_index.get(label)
    }

    pub fn leaf_label(&self, leaf: u32) -> &str {
        &self.labels[0][leaf as usize]
    }

    /// Number of nodes at a level.
    pub fn node_count(&self, level: usize) -> usize {
        self.labels[level].len()
    }

    pub fn label(&self, level: usize, node: u32) -> &str {
        &self.labels[level][node as usize]
    }

    /// The ancestor of `leaf` at `level` (level 0: the leaf itself).
    pub fn ancestor(&self, leaf: u32, level: usize) -> u32 {
        self.anc[level][leaf as usize]
    }

    /// The parent of a node at `level` (< height).
    pub fn parent(&self, level: usize, node: u32) -> u32 {
        self.parent[level][node as usize]
    }

    /// Children (at level − 1) of a node at `level` ≥ 1.
    pub fn children(&self, level: usize, node: u32) -> &[u32] {
        &self.children[level][node as usize]
    }

    /// Number of leaves under a node.
    pub fn leaves_under(&self, level: usize, node: u32) -> u32 {
        self.leaves_under[level][node as usize]
    }

    /// The depth-first positions `first..=last` of the leaves under a node
    /// (contiguous, as every subtree's are): the leaf ranks its label covers.
    pub fn rank_range(&self, level: usize, node: u32) -> (u32, u32) {
        let first = self.first_rank(level, node);
        (first, first + self.leaves_under(level, node) - 1)
    }

    /// Depth-first position of a leaf: every subtree's leaves are contiguous.
    pub fn leaf_rank(&self, leaf: u32) -> u32 {
        self.leaf_rank[leaf as usize]
    }

    /// The leaf at a depth-first position (inverse of [`Hierarchy::leaf_rank`]).
    pub fn leaf_at_rank(&self, rank: u32) -> u32 {
        self.leaf_at_rank[rank as usize]
    }

    /// The smallest leaf rank under a node: a subtree's leaves occupy the
    /// ranks `first_rank .. first_rank + leaves_under`.
    pub fn first_rank(&self, level: usize, node: u32) -> u32 {
        self.first_rank[level][node as usize]
    }

    /// The first leaf rank under each child of a node (`level` ≥ 1), in
    /// ascending order: the children's subtrees occupy consecutive rank
    /// ranges starting there, so a leaf's child is a binary search and a
    /// prefix of children is a rank threshold.
    pub fn child_rank_starts(&self, level: usize, node: u32) -> Vec<u32> {
        self.children(level, node)
            .iter()
            .map(|&c| self.first_rank(level - 1, c))
            .collect()
    }

    /// The lowest common ancestor of every leaf whose rank lies in
    /// `[lo_rank, hi_rank]`. Subtrees are contiguous in rank order, so the
    /// LCA of any set of leaves is the LCA of its lowest- and highest-ranked
    /// leaves: O(height) instead of a walk over the whole set.
    pub fn lca_of_rank_range(&self, lo_rank: u32, hi_rank: u32) -> (usize, u32) {
        let (a, b) = (self.leaf_at_rank(lo_rank), self.leaf_at_rank(hi_rank));
        let level = self.lca_level(a, b);
        (level, self.anc[level][a as usize])
    }

    /// The level of the lowest common ancestor of two leaves (0 when equal).
    pub fn lca_level(&self, a: u32, b: u32) -> usize {
        (0..=self.height())
            .find(|&l| self.anc[l][a as usize] == self.anc[l][b as usize])
            .unwrap_or(self.height())
    }

    /// The lowest common ancestor `(level, node)` of a non-empty set of
    /// leaves; `None` for an empty set.
    pub fn lca<I: IntoIterator<Item = u32>>(&self, leaves: I) -> Option<(usize, u32)> {
        let mut it = leaves.into_iter();
        let first = it.next()?;
        let mut level = 0;
        for leaf in it {
            while self.anc[level][leaf as usize] != self.anc[level][first as usize] {
                level += 1;
            }
            if level == self.height() {
                break;
            }
        }
        Some((level, self.anc[level][first as usize]))
    }

    /// All leaf labels in code order.
    pub fn leaf_labels(&self) -> &[String] {
        &self.labels[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn builds_tree_and_lca() {
        let h = Hierarchy::from_paths(&p(&[
            &["Bachelors", "Undergraduate", "Higher education", "*"],
            &["Masters", "Graduate", "Higher education", "*"],
            &["Doctorate", "Graduate", "Higher education", "*"],
            &["HS-grad", "High School", "Secondary education", "*"],
        ]))
        .unwrap();
        assert_eq!(h.height(), 3);
        assert_eq!(h.leaf_count(), 4);
        let (m, d, b, hs) = (
            h.leaf_code("Masters").unwrap(),
            h.leaf_code("Doctorate").unwrap(),
            h.leaf_code("Bachelors").unwrap(),
            h.leaf_code("HS-grad").unwrap(),
        );
        assert_eq!(h.lca_level(m, d), 1);
        assert_eq!(h.lca_level(m, b), 2);
        assert_eq!(h.lca_level(m, hs), 3);
        assert_eq!(h.lca_level(m, m), 0);
        let (level, node) = h.lca([m, d, b]).unwrap();
        assert_eq!((level, h.label(level, node)), (2, "Higher education"));
        assert_eq!(h.leaves_under(2, node), 3);
        let (level, node) = h.lca([hs]).unwrap();
        assert_eq!((level, h.label(level, node)), (0, "HS-grad"));
        // Depth-first ranks keep subtrees contiguous.
        assert_eq!(h.leaf_rank(b), 0);
        assert_eq!(h.leaf_rank(m), 1);
        assert_eq!(h.leaf_rank(d), 2);
        assert_eq!(h.leaf_rank(hs), 3);
        assert_eq!(h.leaf_at_rank(2), d);
        let (level, node) = h.lca_of_rank_range(1, 2);
        assert_eq!(h.label(level, node), "Graduate");
        assert_eq!(h.first_rank(level, node), 1);
        let (level, node) = h.lca_of_rank_range(0, 3);
        assert_eq!((level, h.label(level, node)), (3, "*"));
    }

    #[test]
    fn rejects_inconsistent_trees_naming_the_value() {
        let two_parents = Hierarchy::from_paths(&p(&[
            &["a", "X", "*"],
            &["b", "X", "*"],
            &["c", "Y", "*"],
            &["d", "Y", "Z"],
        ]))
        .unwrap_err();
        assert_eq!(two_parents.kind, ErrorKind::InvalidHierarchy);
        assert!(
            two_parents.message.contains("two roots"),
            "{}",
            two_parents.message
        );

        let err = Hierarchy::from_paths(&p(&[&["a", "X", "R1", "*"], &["b", "X", "R2", "*"]]))
            .unwrap_err();
        assert!(err.message.contains("'X'"), "{}", err.message);
        let err = Hierarchy::from_paths(&p(&[&["a", "X", "*"], &["a", "Y", "*"]])).unwrap_err();
        assert!(err.message.contains("'a'"), "{}", err.message);
        let err = Hierarchy::from_paths(&p(&[&["a", "X", "*"], &["b", "*"]])).unwrap_err();
        assert!(err.message.contains("'b'"), "{}", err.message);
        assert!(Hierarchy::from_paths(&p(&[&["a"]])).is_err());
        assert!(Hierarchy::from_paths(&[]).is_err());
    }

    #[test]
    fn flat_hierarchy_generalizes_to_star() {
        let h = Hierarchy::flat(["x", "y", "x", "z"]);
        assert_eq!(h.leaf_count(), 3);
        assert_eq!(h.height(), 1);
        let (l, n) = h.lca([0, 2]).unwrap();
        assert_eq!(h.label(l, n), "*");
    }
}
