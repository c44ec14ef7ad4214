//! The library's one entry to the IR: a specs folder → every op merged, its documented error
//! conditions turned into rules, and those rules proven satisfiable (`cases::prove`: a rule no
//! valid call survives is demoted to manual). gen, lint, validate, audit, conform and sim all
//! start here.

use crate::specs::{Specs, SpecsError};
use rayon::prelude::*;
use std::path::Path;

/// Loads `docs/` and `ops/` below `dir` (or a bare folder of docs) and applies the rules to every
/// op, on all cores. Problems in the files are diagnostics in the result, not errors.
pub fn load(dir: &Path) -> Result<Specs, SpecsError> {
    let mut specs = crate::specs::load_specs(dir)?;
    apply_rules(&mut specs.ops);
    Ok(specs)
}

/// The rules of every op (ops read some other way: one file, a list of docs), proven, and the
/// cases synthesized from them: the one place they are made (`OpIr::cases`).
pub fn apply_rules(ops: &mut [crate::ir::OpIr]) {
    ops.par_iter_mut().for_each(apply_rules_to);
}

/// `apply_rules` for one op.
pub fn apply_rules_to(op: &mut crate::ir::OpIr) {
    crate::rules::apply(op);
    crate::cases::prove(op);
    derive(op);
}

/// What every later stage reads from an op's proven rules, made once: the cases synthesized from
/// them and the outputs' shape and dtype sources. (An IR whose rules come ready-made, such as a
/// test fixture, calls this alone.)
pub fn derive(op: &mut crate::ir::OpIr) {
    op.cases = crate::cases::synthesize(op);
    op.outputs = crate::rules::outputs::infer(op);
}
