//! The module graph of the service (`src/`) and of the core
//! (`crates/proxima-core/src`) has no cycle, and the layers point one way.
//!
//! A cycle between modules means neither can be read, tested or moved
//! without the other; the service's layers (`http` → `app` → `store`/core,
//! wire types below them) only stay layers if nothing points back up. The
//! check reads the sources: a module `a` depends on `b` when its code names
//! `crate::b…` or reaches `b` through `super::`. For every directory it
//! builds the graph among that directory's children (the directory's own
//! `mod.rs`/`lib.rs`, which wires the children together, is not a node) and
//! reports every strongly connected component of more than one module.
//! Test code (`#[cfg(test)]` items, `tests*.rs`, `*_tests.rs`, `tests/`
//! folders) may reach anywhere and is left out.
//!
//! It is a source scan, not the compiler's view: a path spelled through a
//! `use` alias is followed only when the alias names `crate::` or `super::`,
//! which is how this codebase writes them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every product module under `root` with its source, test code removed.
fn modules(root: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                if name != "tests" {
                    stack.push(path);
                }
                continue;
            }
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            if stem.starts_with("tests") || stem.ends_with("_tests") {
                continue;
            }
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut module: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_string())
                .collect();
            if matches!(stem, "mod" | "lib" | "main") {
                module.pop();
            }
            let source = std::fs::read_to_string(&path).unwrap();
            out.insert(module, without_tests(&without_comments(&source)));
        }
    }
    out
}

fn without_comments(source: &str) -> String {
    source
        .lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The source with every `#[cfg(test)]` item cut out (the item runs to its
/// closing brace or, for `mod x;` and `use`, to its semicolon).
fn without_tests(source: &str) -> String {
    let mut out = String::new();
    let mut rest = source;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The module paths a module's source names: `crate::a::b` and
/// `super::super::c` (resolved against the module's own path), including the
/// heads of `crate::{a, b::c}` groups.
fn references(module: &Module, source: &str) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    let bytes = source.as_bytes();
    for (at, _) in source.match_indices("crate::") {
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        let tail = &source[at + "crate::".len()..];
        if let Some(group) = tail.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                let path = path_of(part.trim());
                if !path.is_empty() {
                    out.insert(path);
                }
            }
        } else {
            out.insert(path_of(tail));
        }
    }
    let mut from = 0;
    while let Some(found) = source[from..].find("super::") {
        let at = from + found;
        from = at + 1;
        if at > 0 && (is_ident(bytes[at - 1] as char) || bytes[at - 1] == b':') {
            continue;
        }
        let mut tail = &source[at..];
        let mut ups = 0;
        while let Some(t) = tail.strip_prefix("super::") {
            ups += 1;
            tail = t;
        }
        if ups > module.len() {
            continue;
        }
        let mut path: Module = module[..module.len() - ups].to_vec();
        path.extend(path_of(tail));
        out.insert(path);
    }
    out
}

fn path_of(text: &str) -> Module {
    let mut path = Vec::new();
    let mut rest = text;
    loop {
        let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        if word.is_empty() || !word.starts_with(|c: char| c.is_ascii_lowercase()) {
            break;
        }
        path.push(word.to_string());
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    path
}

/// For each directory (module path), the graph among its children.
fn sibling_graphs(
    modules: &BTreeMap<Module, String>,
) -> BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> {
    let mut graphs: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let exists = |parent: &[String], child: &str| {
        modules.keys().any(|m| {
            m.len() > parent.len() && m[..parent.len()] == *parent && m[parent.len()] == child
        })
    };
    for (module, source) in modules {
        for reference in references(module, source) {
            // The deepest directory both sit in, and the two children of it.
            let common = module
                .iter()
                .zip(&reference)
                .take_while(|(a, b)| a == b)
                .count();
            if common >= module.len() || common >= reference.len() {
                continue; // a module naming its own parent or its own child
            }
            let parent = module[..common].to_vec();
            let (a, b) = (&module[common], &reference[common]);
            if a != b && exists(&parent, b) {
                graphs
                    .entry(parent)
                    .or_default()
                    .entry(a.clone())
                    .or_default()
                    .insert(b.clone());
            }
        }
    }
    graphs
}

/// Strongly connected components of more than one node (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(next) = s.graph.get(v) {
            for w in next {
                if !s.index.contains_key(w.as_str()) {
                    visit(s, w);
                    let low = s.low[w.as_str()].min(s.low[v]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w.as_str()) {
                    let low = s.index[w.as_str()].min(s.low[v]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn module_cycles(root: &Path) -> Vec<String> {
    let modules = modules(root);
    assert!(modules.len() > 10, "no sources under {}", root.display());
    let mut found = Vec::new();
    for (parent, graph) in sibling_graphs(&modules) {
        for component in cycles(&graph) {
            let place = if parent.is_empty() {
                "the top level".to_string()
            } else {
                parent.join("/")
            };
            let edges: Vec<String> = component
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|b| component.contains(b))
                        .map(move |b| format!("{a} → {b}"))
                })
                .collect();
            found.push(format!(
                "{} in {place}: {{{}}} ({})",
                root.strip_prefix(workspace()).unwrap_or(root).display(),
                component.join(", "),
                edges.join(", ")
            ));
        }
    }
    found
}

#[test]
fn the_service_modules_form_no_cycle() {
    let found = module_cycles(&workspace().join("src"));
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

#[test]
fn the_core_modules_form_no_cycle() {
    let found = module_cycles(&workspace().join("crates/proxima-core/src"));
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// The layers of the service, lowest first: a module may name modules of
/// its own layer or below, never above.
const SERVICE_LAYERS: &[&[&str]] = &[
    &["fault", "telemetry", "pg_embedded", "allocator"],
    &["api"],
    &["store", "metrics", "render", "html"],
    &["release_report", "sweep"],
    &["app"],
    &["worker", "offline", "retention"],
    &["http"],
    &["config", "server", "cli", "main"],
];

#[test]
fn the_service_layers_point_one_way() {
    let modules = modules(&workspace().join("src"));
    let layer_of = |name: &str| SERVICE_LAYERS.iter().position(|l| l.contains(&name));
    let mut wrong = Vec::new();
    for (module, source) in &modules {
        let Some(top) = module.first() else { continue };
        let Some(from) = layer_of(top) else {
            wrong.push(format!("src/{top} is in no layer of SERVICE_LAYERS"));
            continue;
        };
        for reference in references(module, source) {
            let Some(to) = reference.first().and_then(|r| layer_of(r)) else {
                continue;
            };
            if to > from {
                wrong.push(format!(
                    "{} names {} (a higher layer)",
                    module.join("/"),
                    reference.join("::")
                ));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_check_finds_a_planted_cycle() {
    let mut modules = BTreeMap::new();
    modules.insert(
        vec!["a".to_string()],
        "use crate::b::Thing;\n#[cfg(test)]\nmod tests { use crate::c::X; }".to_string(),
    );
    modules.insert(
        vec!["b".to_string()],
        "fn f() { super::a::g() }".to_string(),
    );
    modules.insert(vec!["c".to_string()], "use crate::{a, b::Y};".to_string());
    let modules: BTreeMap<Module, String> = modules
        .into_iter()
        .map(|(m, s)| (m, without_tests(&s)))
        .collect();
    let graphs = sibling_graphs(&modules);
    assert_eq!(cycles(&graphs[&Vec::new()]), vec![vec!["a", "b"]]);
    assert!(!graphs[&Vec::new()]["a"].contains("c"), "test code counted");
}
