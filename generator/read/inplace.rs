//! The in-place and out-of-place functions of one doc (`aclnnElu&aclnnInplaceElu`) are one
//! implementation: CANN's `aclnnInplaceX` runs `aclnnX`'s parameter checks on `selfRef` as `self`
//! and as `out`. Where the doc's two parameter tables list different dtypes for one tensor, the
//! doc contradicts itself; a dtype either table supports is accepted by both (rejecting a call
//! one half of the doc documents as valid breaks working code), with a warning at the narrower
//! row so the doc's authors can fix it.

use crate::diag::Code;
use crate::ir::{Diagnostic, OpIr, Param, ProductId, Role, Severity};
use aclnn_runtime::DType;
use std::collections::BTreeMap;

/// Widens the dtype lists of every `InplaceX`/`X` pair among `ops` (the ops of one doc), product
/// by product, by what the other function accepts for the same argument, and warns where they
/// differed. The in-place tensor is both `X`'s input and its output, so it takes only what both
/// of those accept (an integer `self` of Erfinv, whose `out` is floating, is no in-place tensor).
pub fn unite_inplace_dtypes(ops: &mut [OpIr], lines: &[&str]) {
    let names: Vec<String> = ops.iter().map(|o| o.op.clone()).collect();
    for (inplace, name) in names.iter().enumerate() {
        let Some(base) = name
            .strip_prefix("Inplace")
            .and_then(|b| names.iter().position(|n| n == b))
        else {
            continue;
        };
        let pairs = counterparts(&ops[base], &ops[inplace]);
        let (base_op, inplace_op) = (ops[base].clone(), ops[inplace].clone());
        for (b, _) in &pairs {
            let of: Vec<usize> = pairs.iter().filter(|p| p.0 == *b).map(|p| p.1).collect();
            let accepted = accepted_by_all(&inplace_op, &of);
            widen(&mut ops[base], *b, &accepted, &inplace_op.op, lines);
        }
        for (_, i) in &pairs {
            let of: Vec<usize> = pairs.iter().filter(|p| p.1 == *i).map(|p| p.0).collect();
            let accepted = accepted_by_all(&base_op, &of);
            widen(&mut ops[inplace], *i, &accepted, &base_op.op, lines);
        }
    }
}

/// The dtypes, product by product, that every one of `op`'s tensors `indices` accepts.
fn accepted_by_all(op: &OpIr, indices: &[usize]) -> BTreeMap<ProductId, Vec<DType>> {
    let mut lists = indices.iter().map(|&i| &op.params[i].dtypes);
    let Some(first) = lists.next() else {
        return BTreeMap::new();
    };
    let mut out = first.clone();
    for other in lists {
        out.retain(|product, _| other.contains_key(product));
        for (product, list) in out.iter_mut() {
            list.retain(|d| other[product].contains(d));
        }
    }
    out
}

/// The tensor pairs of `base` and `inplace` that are one argument of the implementation: a
/// tensor of one name (`selfRef` answers to `self`), and the tensor updated in place as `base`'s
/// output.
fn counterparts(base: &OpIr, inplace: &OpIr) -> Vec<(usize, usize)> {
    let tensors = |op: &OpIr| -> Vec<(usize, Param)> {
        op.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.role.is_tensor())
            .map(|(i, p)| (i, p.clone()))
            .collect()
    };
    let mut out = Vec::new();
    for (b, bp) in tensors(base) {
        for (i, ip) in tensors(inplace) {
            let stem = ip.name.strip_suffix("Ref").unwrap_or(&ip.name);
            // The tensor updated in place ("selfRef", whatever role its row gives it) is also
            // the output.
            let updated = ip.role == Role::InOutTensor || ip.name.ends_with("Ref");
            let as_output = updated && bp.role == Role::OutputTensor;
            if stem == bp.name || as_output {
                out.push((b, i));
            }
        }
    }
    out
}

/// Adds to `op.params[index]`'s dtypes, on each product both list, the ones `other_dtypes`
/// (of `other_op`'s counterpart) has and it lacks; a warning at its row names them.
fn widen(
    op: &mut OpIr,
    index: usize,
    other_dtypes: &BTreeMap<ProductId, Vec<DType>>,
    other_op: &str,
    lines: &[&str],
) {
    let param = &mut op.params[index];
    let mut added: Vec<DType> = Vec::new();
    for (product, list) in param.dtypes.iter_mut() {
        let Some(extra) = other_dtypes.get(product) else {
            continue;
        };
        for d in extra {
            if !list.contains(d) {
                list.push(*d);
                if !added.contains(d) {
                    added.push(*d);
                }
            }
        }
    }
    if added.is_empty() {
        return;
    }
    let names: Vec<String> = added.iter().map(|d| d.to_string()).collect();
    let message = format!(
        "{}'s dtypes lack {} that aclnn{}'s table lists for the same tensor; one implementation \
         checks both, so both accept them",
        param.name,
        names.join(", "),
        other_op,
    );
    let (file, line) = param
        .source
        .as_ref()
        .map_or((String::new(), 0), |l| (l.file.clone(), l.line));
    let source_line = line
        .checked_sub(1)
        .and_then(|i| lines.get(i))
        .copied()
        .unwrap_or("");
    op.diagnostics.push(Diagnostic::at(
        Severity::Warning,
        Code::InplaceDtypesDiffer,
        message,
        &file,
        line,
        0,
        source_line,
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Loc;

    fn tensor(name: &str, role: Role, dtypes: &[DType], line: usize) -> Param {
        Param {
            name: name.into(),
            role,
            dtypes: BTreeMap::from([("ascend910b".into(), dtypes.to_vec())]),
            source: Some(Loc {
                file: "d.md".into(),
                line,
                column: 0,
            }),
            ..Param::default()
        }
    }

    fn op(name: &str, params: Vec<Param>) -> OpIr {
        OpIr {
            op: name.into(),
            params,
            ..OpIr::default()
        }
    }

    #[test]
    fn the_inplace_table_widens_the_out_of_place_one_and_a_warning_names_the_row() {
        let f = [DType::Float32, DType::Float16];
        let wide = [DType::Float32, DType::Float16, DType::Float64];
        let mut ops = vec![
            op(
                "Elu",
                vec![
                    tensor("self", Role::InputTensor, &f, 3),
                    tensor("out", Role::OutputTensor, &f, 4),
                ],
            ),
            op(
                "InplaceElu",
                vec![tensor("selfRef", Role::InOutTensor, &wide, 9)],
            ),
        ];
        let lines = ["", "", "| self | FLOAT、FLOAT16 |", "| out |"];
        unite_inplace_dtypes(&mut ops, &lines);
        for p in &ops[0].params {
            assert_eq!(p.dtypes["ascend910b"], wide, "{}", p.name);
        }
        assert_eq!(ops[1].params[0].dtypes["ascend910b"], wide);
        let warned: Vec<(usize, &str)> = ops[0]
            .diagnostics
            .iter()
            .map(|d| (d.line, d.source_line.as_str()))
            .collect();
        assert_eq!(warned, [(3, "| self | FLOAT、FLOAT16 |"), (4, "| out |")]);
        assert!(ops[0].diagnostics[0].message.contains("DOUBLE"));
        assert!(
            ops[1].diagnostics.is_empty(),
            "the wider table is not warned"
        );
    }

    #[test]
    fn ops_that_are_no_inplace_pair_and_products_one_side_lacks_are_left_alone() {
        let mut ops = vec![
            op(
                "Foo",
                vec![tensor("self", Role::InputTensor, &[DType::Float32], 1)],
            ),
            op(
                "InplaceBar",
                vec![tensor("selfRef", Role::InOutTensor, &[DType::Int8], 2)],
            ),
        ];
        unite_inplace_dtypes(&mut ops, &[]);
        assert_eq!(ops[0].params[0].dtypes["ascend910b"], [DType::Float32]);
        let mut inplace = tensor("selfRef", Role::InOutTensor, &[DType::Int8], 2);
        inplace.dtypes = BTreeMap::from([("ascend910".into(), vec![DType::Int8])]);
        let mut ops = vec![
            op(
                "Foo",
                vec![tensor("self", Role::InputTensor, &[DType::Float32], 1)],
            ),
            op("InplaceFoo", vec![inplace]),
        ];
        unite_inplace_dtypes(&mut ops, &[]);
        assert_eq!(ops[0].params[0].dtypes["ascend910b"], [DType::Float32]);
        assert!(ops[0].diagnostics.is_empty());
    }

    #[test]
    fn the_updated_tensor_takes_only_what_the_input_and_the_output_both_accept() {
        // Erfinv: an integer self with a floating out; InplaceErfinv's selfRef, documented 输入,
        // is also the output, so no integer dtype is an in-place one.
        let mut ops = vec![
            op(
                "Erfinv",
                vec![
                    tensor("self", Role::InputTensor, &[DType::Float32, DType::Int8], 1),
                    tensor("out", Role::OutputTensor, &[DType::Float32], 2),
                ],
            ),
            op(
                "InplaceErfinv",
                vec![tensor("selfRef", Role::InputTensor, &[DType::Float32], 3)],
            ),
        ];
        unite_inplace_dtypes(&mut ops, &[]);
        assert_eq!(ops[1].params[0].dtypes["ascend910b"], [DType::Float32]);
        assert_eq!(ops[0].params[1].dtypes["ascend910b"], [DType::Float32]);
        assert!(ops.iter().all(|o| o.diagnostics.is_empty()));
    }
}
