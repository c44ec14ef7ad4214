//! Casts on both dev sets (`../shared/corpus`, skipped when absent), against CANN's own
//! implementation (`op-facts.jsonl`): of the aclnn functions whose reachable l0 calls include
//! `Cast`, how many of gen's cast (an `l0op::Cast` in the function gen writes), and of those that
//! reach no `Cast`, how many gen casts anyway. CANN also casts where its kernel is narrower than
//! its API, which no doc states; the floors hold the figures reached, so a change is seen.

use crate::common;

use aclgen::emit::emit_all;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[derive(Debug, Default)]
struct Figures {
    /// CANN's functions reaching `Cast` that gen writes, and those gen casts in.
    reaching: usize,
    cast: usize,
    /// CANN's functions reaching no `Cast` that gen writes, and those gen casts in anyway.
    not_reaching: usize,
    cast_anyway: usize,
}

/// Each aclnn API of a dev set's `op-facts.jsonl`, with whether it reaches `Cast`.
fn reaches_cast(facts: &Path) -> BTreeMap<String, bool> {
    let mut out = BTreeMap::new();
    let text = std::fs::read_to_string(facts).expect("op-facts.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let folder: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        for api in folder["aclnn"].as_array().into_iter().flatten() {
            let name = api["api"].as_str().unwrap_or_default().to_string();
            let cast = api["l0_calls_reachable"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| c.as_str() == Some("Cast"));
            *out.entry(name).or_insert(false) |= cast;
        }
    }
    out
}

/// The first-phase functions of the generated aclnn files: name → body (to the next function).
fn generated_functions(files: &[(String, String)]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (_, text) in files {
        for part in text.split("\naclnnStatus ").skip(1) {
            if let Some((name, _)) = part.split_once("GetWorkspaceSize(") {
                out.insert(name.to_string(), part.to_string());
            }
        }
    }
    out
}

fn figures(corpus: &Path, set: &str) -> Figures {
    let ops = aclgen::pipeline::load(&corpus.join(set).join("docs"))
        .expect("the dev set loads")
        .ops;
    let emitted = emit_all(&ops, &common::ctx()).expect("the dev set emits");
    let aclnn_files: Vec<(String, String)> = emitted
        .files
        .iter()
        .filter(|o| {
            let path = o.file.path.to_string_lossy();
            path.contains("/op_api/aclnn_") && path.ends_with(".cpp")
        })
        .map(|o| (o.file.path.display().to_string(), o.file.contents.clone()))
        .collect();
    let functions = generated_functions(&aclnn_files);
    let facts = reaches_cast(&corpus.join(set).join("op-facts.jsonl"));
    let mut f = Figures::default();
    let mut missed = BTreeSet::new();
    for (api, cann_casts) in &facts {
        let Some(body) = functions.get(api) else {
            continue;
        };
        let casts = body.contains("l0op::Cast(");
        if *cann_casts {
            f.reaching += 1;
            f.cast += usize::from(casts);
            if !casts {
                missed.insert(api.clone());
            }
        } else {
            f.not_reaching += 1;
            f.cast_anyway += usize::from(casts);
        }
    }
    println!(
        "cast figures: {set}: gen casts in {} of {} functions whose CANN implementation reaches \
         Cast ({:.1}%); in {} of {} that reach none",
        f.cast,
        f.reaching,
        100.0 * f.cast as f64 / f.reaching.max(1) as f64,
        f.cast_anyway,
        f.not_reaching
    );
    println!("cast figures: {set}: not cast: {missed:?}");
    f
}

#[test]
fn gen_casts_where_the_docs_state_a_promotion_or_a_paired_output() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    // (set, at least cast, at most cast anyway): the figures reached, held as a ratchet.
    for (set, floor, ceiling) in [("ops-nn", 86, 55), ("ops-math-dev", 117, 9)] {
        let f = figures(&corpus, set);
        assert!(
            f.reaching > 100,
            "{set}: only {} functions judged",
            f.reaching
        );
        assert!(f.cast >= floor, "{set}: gen casts in {} < {floor}", f.cast);
        assert!(
            f.cast_anyway <= ceiling,
            "{set}: gen casts in {} functions CANN does not cast in (> {ceiling})",
            f.cast_anyway
        );
    }
}
