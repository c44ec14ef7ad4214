//! Spec ↔ IR: a full spec becomes an op, an op (imported from a doc) becomes a full spec.

use super::schema::{FullSpec, SpecCParam, SpecError, SpecFunction, SpecKind, SpecParam, SpecRank};
use crate::ir::{CParam, ErrorCase, Function, OpIr, Param, Rank};

// ---------------------------------------------------------------------------------------------
// Spec <-> IR

pub(crate) fn full_to_ir(full: FullSpec, path: &str) -> OpIr {
    OpIr {
        op: full.op,
        products: full.products,
        description: full.description,
        formula: full.formula,
        functions: full
            .functions
            .into_iter()
            .map(|f| Function {
                name: f.name,
                return_type: f.return_type,
                params: f.params.into_iter().map(cparam_to_ir).collect(),
                source: None,
            })
            .collect(),
        params: full.params.into_iter().map(param_to_ir).collect(),
        errors: full.errors.into_iter().map(error_to_ir).collect(),
        inferred_rules: Vec::new(),
        constraints: full.constraints,
        header: full.header,
        example: full.example,
        columns: full.columns,
        msopgen: full.msopgen,
        sources: vec![path.to_string()],
        diagnostics: Vec::new(),
        cases: Default::default(),
        outputs: Vec::new(),
    }
}

pub(super) fn cparam_to_ir(p: SpecCParam) -> CParam {
    CParam {
        name: p.name,
        ty: p.ty,
    }
}

pub(super) fn rank_to_ir(r: SpecRank) -> Rank {
    Rank {
        min: r.min,
        max: r.max,
    }
}

pub(super) fn param_to_ir(p: SpecParam) -> Param {
    Param {
        name: p.name,
        role: p.role,
        ty: p.ty,
        optional: p.optional,
        description: p.description,
        dtypes: p.dtypes,
        formats: p.formats,
        rank: p.rank.map(rank_to_ir),
        shapes: p.shapes,
        non_contiguous: p.non_contiguous,
        empty_tensor: p.empty_tensor,
        constraints: p.constraints,
        enum_values: p.enum_values,
        dtypes_given: p.dtypes_given,
        default: p.default,
        source: None,
    }
}

pub(crate) fn error_to_ir(e: SpecError) -> ErrorCase {
    ErrorCase {
        code: e.code,
        name: e.name,
        condition: e.condition,
        source: None,
        mapping: None,
    }
}

/// The full spec `import` writes for an op (provenance and computed fields dropped).
pub fn ir_to_full(op: &OpIr) -> FullSpec {
    FullSpec {
        kind: SpecKind::Full,
        op: op.op.clone(),
        products: op.products.clone(),
        description: op.description.clone(),
        formula: op.formula.clone(),
        functions: op
            .functions
            .iter()
            .map(|f| SpecFunction {
                name: f.name.clone(),
                return_type: f.return_type.clone(),
                params: f
                    .params
                    .iter()
                    .map(|p| SpecCParam {
                        name: p.name.clone(),
                        ty: p.ty.clone(),
                    })
                    .collect(),
            })
            .collect(),
        params: op
            .params
            .iter()
            .map(|p| SpecParam {
                name: p.name.clone(),
                role: p.role,
                ty: p.ty.clone(),
                optional: p.optional,
                description: p.description.clone(),
                dtypes: p.dtypes.clone(),
                formats: p.formats.clone(),
                rank: p.rank.map(|r| SpecRank {
                    min: r.min,
                    max: r.max,
                }),
                shapes: p.shapes.clone(),
                non_contiguous: p.non_contiguous,
                empty_tensor: p.empty_tensor,
                constraints: p.constraints.clone(),
                enum_values: p.enum_values.clone(),
                dtypes_given: p.dtypes_given.clone(),
                default: p.default.clone(),
            })
            .collect(),
        errors: op
            .errors
            .iter()
            .map(|e| SpecError {
                code: e.code,
                name: e.name.clone(),
                condition: e.condition.clone(),
            })
            .collect(),
        constraints: op.constraints.clone(),
        header: op.header.clone(),
        example: op.example.clone(),
        columns: op.columns,
        msopgen: op.msopgen.clone(),
    }
}

/// YAML of a full spec with every mapping's keys sorted, so output never depends on field order.
pub fn full_to_yaml(full: &FullSpec) -> Result<String, serde_yaml::Error> {
    let value = serde_yaml::to_value(full)?;
    serde_yaml::to_string(&sort_keys(value))
}

fn sort_keys(value: serde_yaml::Value) -> serde_yaml::Value {
    use serde_yaml::Value;
    match value {
        Value::Mapping(map) => {
            let mut entries: Vec<(Value, Value)> = map.into_iter().collect();
            entries.sort_by_cached_key(|(k, _)| key_text(k));
            Value::Mapping(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, sort_keys(v)))
                    .collect(),
            )
        }
        Value::Sequence(items) => Value::Sequence(items.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

fn key_text(key: &serde_yaml::Value) -> String {
    match key {
        serde_yaml::Value::String(s) => s.clone(),
        // Numeric keys (enum values) sort numerically: zero-padded with the sign first.
        serde_yaml::Value::Number(n) => match n.as_i64() {
            Some(i) => format!("{}{:020}", if i < 0 { '-' } else { '0' }, i.unsigned_abs()),
            None => n.to_string(),
        },
        other => serde_yaml::to_string(other).unwrap_or_default(),
    }
}
