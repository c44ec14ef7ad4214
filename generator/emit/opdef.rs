//! What the backends that describe an op's registration share (the OpDef of the Ascend C
//! project, msOpGen's op JSON, the l0 op): its tensors' dtype and format lists as columns, and
//! the attribute kinds, the order of inputs and attributes. Below the backends, so none of them reaches into another.

use crate::ctype::Base;
use crate::ir::{OpIr, Param, Role};

/// Whether tensor `i`'s list combines freely with the others: it has one entry, or no other
/// tensor shares it (so nothing ties it to them).
pub fn independent(lists: &[Vec<String>], i: usize) -> bool {
    lists[i].len() == 1 || lists.iter().filter(|l| **l == lists[i]).count() == 1
}

/// The lists that stay in columns; free tensors get one placeholder entry, multiplying nothing.
pub fn only_tied(lists: &[Vec<String>], free: &[bool]) -> Vec<Vec<String>> {
    lists
        .iter()
        .zip(free)
        .map(|(l, &free)| if free { vec![String::new()] } else { l.clone() })
        .collect()
}

/// Tensors without a documented list follow the first tensor that has one (else `fallback`).
pub fn fill_undocumented(lists: Vec<Vec<String>>, fallback: &str) -> Vec<Vec<String>> {
    let first = lists
        .iter()
        .find(|l| !l.is_empty())
        .cloned()
        .unwrap_or_else(|| vec![fallback.to_string()]);
    lists
        .into_iter()
        .map(|l| if l.is_empty() { first.clone() } else { l })
        .collect()
}

/// Columns over tensors: identical lists are zipped, distinct lists multiplied, in first-seen order.
pub fn columns(lists: &[Vec<String>]) -> Vec<Vec<String>> {
    let mut groups: Vec<&Vec<String>> = Vec::new();
    for l in lists {
        if !groups.contains(&l) {
            groups.push(l);
        }
    }
    let mut picks: Vec<Vec<usize>> = vec![Vec::new()];
    for g in &groups {
        picks = picks
            .into_iter()
            .flat_map(|prefix| {
                (0..g.len()).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    picks
        .iter()
        .map(|pick| {
            lists
                .iter()
                .map(|l| {
                    let g = groups.iter().position(|g| *g == l).unwrap_or(0);
                    l[pick[g]].clone()
                })
                .collect()
        })
        .collect()
}

/// Whether a tensor of this role is an OpDef input (an in/out tensor is both).
pub fn is_input(role: Role) -> bool {
    matches!(
        role,
        Role::InputTensor | Role::InputTensorList | Role::InOutTensor
    )
}

/// The OpDef's inputs, in spec order: their positions are the input indices of InferShape,
/// the TilingContext and the l0 op's `OP_INPUT`.
pub fn inputs(op: &OpIr) -> impl Iterator<Item = &Param> {
    op.params.iter().filter(|p| is_input(p.role))
}

/// The attributes the OpDef registers, in spec order: their positions are the attribute indices
/// of InferShape, the TilingContext and the l0 op's `OP_ATTR`.
pub fn registered_attrs(op: &OpIr) -> impl Iterator<Item = &Param> {
    op.params
        .iter()
        .filter(|p| p.role == Role::Attribute && attr_kind(p).is_some())
}

/// The OpDef attribute kind of an attribute param (`ListInt`, ...); `None`: not registered, so
/// it has no index among the TilingContext's attributes.
pub fn attr_kind(p: &Param) -> Option<&'static str> {
    match p.ty.base() {
        Base::Bool => Some("Bool"),
        Base::Integer(_) | Base::DataType => Some("Int"),
        Base::Float | Base::Double | Base::Scalar => Some("Float"),
        Base::IntArray => Some("ListInt"),
        Base::FloatArray | Base::ScalarList => Some("ListFloat"),
        Base::BoolArray => Some("ListBool"),
        Base::Char => Some("String"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strs(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn identical_lists_zip_and_distinct_lists_multiply() {
        let same = columns(&[strs(&["a", "b"]), strs(&["a", "b"])]);
        assert_eq!(same, vec![strs(&["a", "a"]), strs(&["b", "b"])]);
        let distinct = columns(&[strs(&["a", "b"]), strs(&["x", "y"])]);
        assert_eq!(distinct.len(), 4);
        assert!(distinct.contains(&strs(&["b", "x"])));
    }
}
