//! In-place functions on both dev sets (`../shared/corpus`, skipped when absent): how many
//! `aclnnInplaceX` there are, how many gen links to a documented out-of-place function, how many
//! of those links CANN's own implementation confirms (`op-facts.jsonl`: the in-place API reaches
//! every l0 op the out-of-place API reaches), how many keep an op project of their own, and that
//! no op gen makes has an OpDef without an output. The figures are printed and held exactly, so
//! a change in them is seen and explained.

use crate::common;

use aclgen::emit::{emit_all, Owned};
use aclgen::ir::OpIr;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One dev set's figures.
#[derive(Debug, Default, PartialEq, Eq)]
struct Figures {
    /// `aclnnInplace…` functions gen generates.
    inplace: usize,
    /// Of those, linked to a documented out-of-place function.
    linked: usize,
    /// Links CANN's op facts confirm: the in-place API's reachable l0 calls ⊇ the out-of-place's.
    confirmed: usize,
    /// Links the facts cannot judge (an API with no facts or no l0 call).
    unjudged: usize,
    /// In-place functions with an op project of their own.
    own_project: usize,
    /// Of those, the ones whose out-of-place function is documented but does not map.
    unlinked: usize,
    /// Op projects gen made, and those whose OpDef has no output.
    projects: usize,
    without_output: usize,
}

/// Each aclnn API's reachable l0 calls, from a dev set's `op-facts.jsonl`.
fn l0_calls(facts: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut calls: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let text = std::fs::read_to_string(facts).expect("op-facts.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let folder: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        for api in folder["aclnn"].as_array().into_iter().flatten() {
            let name = api["api"].as_str().unwrap_or_default().to_string();
            let reached = api["l0_calls_reachable"].as_array().into_iter().flatten();
            calls
                .entry(name)
                .or_default()
                .extend(reached.filter_map(|c| c.as_str().map(str::to_string)));
        }
    }
    calls
}

fn generable(op: &OpIr) -> bool {
    !op.has_errors()
        && op.generation_problems().is_empty()
        && aclgen::emit::check_op_name(&op.op).is_ok()
}

fn figures(corpus: &Path, set: &str) -> Figures {
    let ops = aclgen::pipeline::load(&corpus.join(set).join("docs"))
        .expect("the dev set loads")
        .ops;
    let facts = l0_calls(&corpus.join(set).join("op-facts.jsonl"));
    let mut f = Figures::default();
    for op in ops.iter().filter(|op| generable(op)) {
        let Some(inplace) = op.inplace.as_ref() else {
            continue;
        };
        if !op.op.starts_with("Inplace") {
            continue;
        }
        f.inplace += 1;
        let Some(of) = &inplace.of else {
            f.own_project += 1;
            f.unlinked += usize::from(inplace.unlinked.is_some());
            println!(
                "inplace figures: {set}: aclnn{} keeps its own project{}",
                op.op,
                inplace
                    .unlinked
                    .as_ref()
                    .map_or(String::new(), |w| format!(": {w}"))
            );
            continue;
        };
        f.linked += 1;
        let own = facts.get(&format!("aclnn{}", op.op));
        let base = facts.get(&format!("aclnn{}", of.op));
        match (own, base) {
            (Some(own), Some(base)) if !base.is_empty() => {
                if own.is_superset(base) {
                    f.confirmed += 1;
                } else {
                    println!(
                        "inplace figures: {set}: aclnn{} ↔ aclnn{}: CANN's in-place API lacks {:?}",
                        op.op,
                        of.op,
                        base.difference(own).collect::<Vec<_>>()
                    );
                }
            }
            _ => {
                f.unjudged += 1;
                println!(
                    "inplace figures: {set}: aclnn{} ↔ aclnn{}: no l0 calls in CANN's op facts",
                    op.op, of.op
                );
            }
        }
    }
    let emitted = emit_all(&ops, &common::ctx()).expect("the dev set emits");
    let defs: Vec<&Owned> = emitted
        .files
        .iter()
        .filter(|o| o.file.path.to_string_lossy().ends_with("_def.cpp"))
        .collect();
    f.projects = defs.len();
    for def in defs {
        if !def.file.contents.contains(".Output(\"") && !def.file.contents.contains("->Output(\"") {
            f.without_output += 1;
            // Never an in-place function: its project computes into its in/out tensor.
            assert!(
                !def.owner.starts_with("Inplace"),
                "{set}: aclnn{} has no output",
                def.owner
            );
            println!(
                "inplace figures: {set}: {} has no output",
                def.file.path.display()
            );
        }
    }
    f
}

#[test]
fn inplace_functions_of_both_dev_sets_share_their_out_of_place_ops() {
    let Some(corpus) = common::corpus() else {
        return;
    };
    // ops-nn: InplaceAddRmsNorm does not map (AddRmsNorm has three outputs); InplaceAddmm's
    // APIs have no l0 calls in the facts. ops-math-dev: InplaceAddV3's selfRef is an aclScalar,
    // AddV3's self too but its tensor is other; InplaceNe* have no facts. The projects without
    // an output are no in-place functions: ops that write tensor lists in place (Foreach…Inplace,
    // FusedAdamw, FusedSgd, ScatterList: an in/out list is no OpDef role), AdvanceStep(V2)
    // (every tensor documented a const input) and IsInTensorScalar (its out is an aclScalar).
    let want = [
        (
            "ops-nn",
            Figures {
                inplace: 30,
                linked: 24,
                confirmed: 23,
                unjudged: 1,
                own_project: 6,
                unlinked: 1,
                projects: 465,
                without_output: 15,
            },
        ),
        (
            "ops-math-dev",
            Figures {
                inplace: 54,
                linked: 47,
                confirmed: 45,
                unjudged: 2,
                own_project: 7,
                unlinked: 1,
                projects: 204,
                without_output: 1,
            },
        ),
    ];
    let mut problems = Vec::new();
    for (set, want) in want {
        let got = figures(&corpus, set);
        println!(
            "inplace figures: {set}: {} in-place functions, {} linked to a documented out-of-place \
             function ({} confirmed by CANN's op facts, {} the facts cannot judge), {} with a \
             project of their own ({} of them documented but not mapping); {} op projects, {} \
             without an output",
            got.inplace,
            got.linked,
            got.confirmed,
            got.unjudged,
            got.own_project,
            got.unlinked,
            got.projects,
            got.without_output
        );
        if got != want {
            problems.push(format!("{set}: {got:?}, want {want:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
