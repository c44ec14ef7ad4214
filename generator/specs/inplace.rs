//! In-place functions and their out-of-place ops, across every op of a specs folder. CANN's
//! `aclnnInplaceX` is `aclnnX` computing into its in/out tensor: both reach the same l0 ops
//! (`op-facts.jsonl`), so a linked in-place function shares `X`'s OpDef, l0 op and kernel. The
//! name pattern is CANN's: in both dev sets' prototypes every `aclnnInplaceX` whose out-of-place
//! function exists is `aclnnX` (`InplaceAdds` ↔ `Adds`, `InplaceDivMods` ↔ `DivMods`); the
//! others (`InplaceCopy`, `InplaceFillScalar`, `InplaceRandom`) have none.
//!
//! The link is made once here, on the IR (`OpIr::inplace`), so every emitter reads the same one.

use crate::diag::Code;
use crate::ir::{ArgLink, Inplace, InplaceOf, OpIr, Param, ParamKind, Role, Severity};
use std::borrow::Cow;

/// Marks every in-place op of `ops` with its in/out tensor and links it to its out-of-place op
/// where `ops` has one whose parameters map; where they do not, the op keeps a project of its
/// own and gets an `inplace-unlinked` warning saying why.
pub fn link(ops: &mut [OpIr]) {
    let found: Vec<Option<Inplace>> = ops.iter().map(|op| inplace_of(op, ops)).collect();
    for (op, inplace) in ops.iter_mut().zip(found) {
        if let Some(why) = inplace.as_ref().and_then(|i| i.unlinked.as_ref()) {
            let message = format!(
                "aclnn{} is not linked to its out-of-place function: {why}; it keeps an op \
                 project of its own",
                op.op
            );
            let d = op.op_diagnostic(Severity::Warning, Code::InplaceUnlinked, message);
            if !op.diagnostics.contains(&d) {
                op.diagnostics.push(d);
            }
        }
        op.inplace = inplace;
    }
}

/// `op`'s in-place facts, if it is an in-place function.
fn inplace_of(op: &OpIr, ops: &[OpIr]) -> Option<Inplace> {
    let tensor = inplace_tensor(op)?;
    let mut inplace = Inplace {
        tensor: tensor.name.clone(),
        ..Inplace::default()
    };
    let base = out_of_place_name(&op.op)
        .and_then(|name| ops.iter().find(|o| o.op == name))
        .filter(|base| generable(base));
    if let Some(base) = base {
        // An out-of-place op whose doc lists its `out` as an input (aclnnTril) writes it all the
        // same: its project has it as the output, and so does the link.
        match map_args(op, &project_ir(base), &tensor.name) {
            Ok(args) => {
                inplace.of = Some(InplaceOf {
                    op: base.op.clone(),
                    args,
                })
            }
            Err(why) => inplace.unlinked = Some(why),
        }
    }
    Some(inplace)
}

/// `InplaceAdd` → `Add`: CANN's one naming pattern of in-place functions.
pub fn out_of_place_name(op: &str) -> Option<&str> {
    op.strip_prefix("Inplace")
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// An op gen makes files for: the only kind an in-place function can share a project with.
fn generable(op: &OpIr) -> bool {
    !op.has_errors() && op.generation_problems().is_empty() && inplace_tensor(op).is_none()
}

fn is_output(p: &Param) -> bool {
    matches!(p.role, Role::OutputTensor | Role::OutputTensorList)
}

/// The tensor an in-place function computes into: the one documented in/out, else the one named
/// `…Ref` (CANN's in/out spelling, even where a doc declares it `const`), else, for an
/// `Inplace…` function, its first tensor (`aclnnInplaceSqrt(self)`). `None` for an op that
/// is no in-place function or already writes an output of its own.
fn inplace_tensor(op: &OpIr) -> Option<&Param> {
    let single = |p: &&Param| p.role.is_tensor() && !p.role.is_tensor_list();
    let named = out_of_place_name(&op.op).is_some();
    if !named
        && op
            .params
            .iter()
            .any(|p| is_output(p) || p.role == Role::InOutTensor)
    {
        return None;
    }
    let tensors = || op.params.iter().filter(single);
    tensors()
        .find(|p| p.role == Role::InOutTensor)
        .or_else(|| tensors().find(|p| p.name.ends_with("Ref")))
        .or_else(|| tensors().next().filter(|_| named))
}

/// The IR an op's own project (OpDef, l0 op, InferShape, aclnn entry) is made from: where the
/// doc's rows leave the op without an output, the tensors it writes are given the output roles
/// (`written_roles`), so no op is without one. Header, cases and validators keep the IR as read.
pub fn project_ir(op: &OpIr) -> Cow<'_, OpIr> {
    let roles = written_roles(op);
    if roles.is_empty() {
        return Cow::Borrowed(op);
    }
    let mut project = op.clone();
    for p in project.params.iter_mut() {
        if let Some((_, role)) = roles.iter().find(|(name, _)| *name == p.name) {
            p.role = *role;
        }
    }
    Cow::Owned(project)
}

/// The tensors an op without an output role writes, and the role its project gives them: an
/// in-place function's in/out tensor (`const aclTensor* selfRef` documented 输入/输出); else the
/// tensors a doc lists as inputs but declares writable (`aclTensor* out` of aclnnTril's row
/// "输入"); else those named `out` or `…Out` (`const aclTensor* out` of aclnnFastGeluV2).
/// Empty for an op with an output. Tensor lists written in place have no such role (an
/// in/out list is neither an OpDef input nor an output alone) and stay as read.
pub fn written_roles(op: &OpIr) -> Vec<(String, Role)> {
    if op
        .params
        .iter()
        .any(|p| is_output(p) || p.role == Role::InOutTensor)
    {
        return Vec::new();
    }
    if let Some(t) = inplace_tensor(op) {
        return vec![(t.name.clone(), Role::InOutTensor)];
    }
    let single = |p: &&Param| p.role == Role::InputTensor;
    let writable: Vec<(String, Role)> = op
        .params
        .iter()
        .filter(single)
        .filter(|p| !p.ty.is_const())
        .map(|p| (p.name.clone(), Role::OutputTensor))
        .collect();
    if !writable.is_empty() {
        return writable;
    }
    op.params
        .iter()
        .filter(single)
        .filter(|p| p.name == "out" || p.name.ends_with("Out"))
        .map(|p| (p.name.clone(), Role::OutputTensor))
        .collect()
}

/// Parameters of a first phase that carry arguments (not workspaceSize/executor).
fn arguments(op: &OpIr) -> impl Iterator<Item = &Param> {
    op.params.iter().filter(|p| {
        !matches!(
            p.role,
            Role::WorkspaceSize | Role::Executor | Role::Workspace | Role::Stream
        )
    })
}

/// What kind of argument a parameter is, for matching two functions' parameters.
fn shape_of(p: &Param) -> (bool, bool, ParamKind) {
    (p.role.is_tensor(), p.role.is_tensor_list(), p.kind())
}

/// The in-place argument of each of `base`'s parameters: `tensor` for its first input and its
/// output, the parameter of the same name for the others. Err says why they do not correspond.
fn map_args(op: &OpIr, base: &OpIr, tensor: &str) -> Result<Vec<ArgLink>, String> {
    let (input, output) = base_tensors(base)?;
    let mut args = Vec::new();
    for p in arguments(base) {
        let from = if p.name == input.name || p.name == output.name {
            tensor.to_string()
        } else {
            let Some(own) = arguments(op).find(|q| q.name == p.name && q.name != tensor) else {
                return Err(format!(
                    "aclnn{}'s parameter {} has no counterpart in aclnn{}",
                    base.op, p.name, op.op
                ));
            };
            if shape_of(own) != shape_of(p) {
                return Err(format!(
                    "{} is `{}` in aclnn{} but `{}` in aclnn{}",
                    p.name,
                    own.ty.as_str().trim(),
                    op.op,
                    p.ty.as_str().trim(),
                    base.op
                ));
            }
            p.name.clone()
        };
        args.push(ArgLink {
            param: p.name.clone(),
            from,
        });
    }
    if let Some(extra) =
        arguments(op).find(|q| q.name != tensor && !args.iter().any(|a| a.from == q.name))
    {
        return Err(format!(
            "aclnn{}'s parameter {} has no counterpart in aclnn{}",
            op.op, extra.name, base.op
        ));
    }
    Ok(args)
}

/// The out-of-place op's first input tensor and its one output tensor, which the in/out tensor
/// plays both of.
fn base_tensors(base: &OpIr) -> Result<(&Param, &Param), String> {
    let single = |p: &&Param| p.role.is_tensor() && !p.role.is_tensor_list();
    let input = arguments(base)
        .filter(single)
        .find(|p| matches!(p.role, Role::InputTensor | Role::InOutTensor))
        .ok_or_else(|| format!("aclnn{} has no input tensor", base.op))?;
    let mut outputs: Vec<&Param> = arguments(base).filter(|p| is_output(p)).collect();
    if outputs.is_empty() {
        // `aclnnIndexCopy(selfRef, …, outRef)`: an in/out tensor after the input is the output.
        outputs = arguments(base)
            .filter(|p| p.role == Role::InOutTensor && p.name != input.name)
            .collect();
    }
    match outputs.as_slice() {
        [one] if single(one) => Ok((input, one)),
        [one] => Err(format!(
            "aclnn{}'s output {} is a tensor list",
            base.op, one.name
        )),
        _ => Err(format!(
            "aclnn{} has {} output tensors, and the in/out tensor can be only one",
            base.op,
            outputs.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{attr, tensor, two_phase};

    fn add() -> OpIr {
        two_phase(
            "Add",
            vec![
                tensor("self", Role::InputTensor),
                tensor("other", Role::InputTensor),
                attr("alpha", "const aclScalar*", &[]),
                tensor("out", Role::OutputTensor),
            ],
        )
    }

    /// aclnnInplaceAdd as the ops-math doc declares it: `const aclTensor* selfRef`, an input.
    fn inplace_add() -> OpIr {
        two_phase(
            "InplaceAdd",
            vec![
                tensor("selfRef", Role::InputTensor),
                tensor("other", Role::InputTensor),
                attr("alpha", "const aclScalar*", &[]),
            ],
        )
    }

    fn arg_pairs(op: &OpIr) -> Vec<(String, String)> {
        let of = op.linked_to().expect("linked");
        of.args
            .iter()
            .map(|a| (a.param.clone(), a.from.clone()))
            .collect()
    }

    #[test]
    fn inplace_add_is_add_computing_into_self_ref() {
        let mut ops = vec![inplace_add(), add()];
        link(&mut ops);
        let pairs = arg_pairs(&ops[0]);
        let want = [
            ("self", "selfRef"),
            ("other", "other"),
            ("alpha", "alpha"),
            ("out", "selfRef"),
        ];
        assert_eq!(
            pairs,
            want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
        );
        assert_eq!(ops[0].project_op(), "Add");
        assert_eq!(ops[1].inplace, None, "Add is no in-place function");
        assert!(ops[0].diagnostics.is_empty());
    }

    #[test]
    fn without_the_out_of_place_op_the_inplace_op_keeps_its_own_project() {
        let mut ops = vec![inplace_add()];
        link(&mut ops);
        let inplace = ops[0].inplace.as_ref().expect("in-place");
        assert_eq!((inplace.tensor.as_str(), &inplace.of), ("selfRef", &None));
        assert_eq!(ops[0].project_op(), "InplaceAdd");
        assert!(ops[0].diagnostics.is_empty(), "nothing to link: no warning");
    }

    #[test]
    fn parameters_that_do_not_correspond_are_not_linked_and_gen_says_why() {
        let mut extra = inplace_add();
        extra.params.push(attr("mode", "int64_t", &[]));
        let mut ops = vec![extra, add()];
        link(&mut ops);
        let inplace = ops[0].inplace.as_ref().expect("in-place");
        assert_eq!(inplace.of, None);
        let why = inplace.unlinked.as_deref().expect("a reason");
        assert!(why.contains("mode has no counterpart in aclnnAdd"), "{why}");
        assert_eq!(ops[0].diagnostics[0].code, Code::InplaceUnlinked);

        let mut retyped = inplace_add();
        retyped.params[2] = attr("alpha", "double", &[]);
        let mut ops = vec![retyped, add()];
        link(&mut ops);
        let why = ops[0].inplace.as_ref().and_then(|i| i.unlinked.clone());
        assert!(why.expect("a reason").contains("alpha is `double`"));
    }

    #[test]
    fn the_in_out_tensor_is_found_by_role_then_name_then_position() {
        let sqrt = two_phase("InplaceSqrt", vec![tensor("self", Role::InputTensor)]);
        assert_eq!(inplace_tensor(&sqrt).map(|p| p.name.as_str()), Some("self"));
        let ref_named = two_phase(
            "ScatterUpdate",
            vec![
                tensor("indices", Role::InputTensor),
                tensor("varRef", Role::InputTensor),
            ],
        );
        assert_eq!(
            inplace_tensor(&ref_named).map(|p| p.name.as_str()),
            Some("varRef")
        );
        // An op writing an output of its own is no in-place function.
        assert!(inplace_tensor(&add()).is_none());
        assert_eq!(out_of_place_name("Inplaceable"), None);
        assert_eq!(out_of_place_name("InplaceAdds"), Some("Adds"));
    }

    #[test]
    fn an_op_without_an_output_writes_its_in_out_or_writable_tensor() {
        let roles = |op: &OpIr| written_roles(op);
        assert_eq!(
            roles(&inplace_add()),
            [("selfRef".to_string(), Role::InOutTensor)]
        );
        assert!(roles(&add()).is_empty());
        // aclnnTril's doc lists `aclTensor* out` as 输入.
        let mut out = tensor("out", Role::InputTensor);
        out.ty = "aclTensor*".into();
        let tril = two_phase("Tril", vec![tensor("self", Role::InputTensor), out]);
        assert_eq!(roles(&tril), [("out".to_string(), Role::OutputTensor)]);
        let project = project_ir(&tril);
        assert_eq!(project.params[1].role, Role::OutputTensor);
        // So aclnnInplaceTril links to it.
        let inplace = two_phase("InplaceTril", vec![tensor("selfRef", Role::InputTensor)]);
        let mut ops = vec![inplace, tril];
        link(&mut ops);
        assert_eq!(ops[0].project_op(), "Tril");
        // `const aclTensor* out` of a doc that lists it as 输入 (aclnnFastGeluV2).
        let gelu = two_phase(
            "FastGeluV2",
            vec![
                tensor("x", Role::InputTensor),
                tensor("out", Role::InputTensor),
            ],
        );
        assert_eq!(roles(&gelu), [("out".to_string(), Role::OutputTensor)]);
    }

    #[test]
    fn an_out_of_place_op_with_an_in_out_output_is_linked_by_its_output() {
        // aclnnIndexCopy(selfRef, dim, index, source, outRef) and its in-place selfRef.
        let base = two_phase(
            "IndexCopy",
            vec![
                tensor("selfRef", Role::InOutTensor),
                attr("dim", "int64_t", &[]),
                tensor("outRef", Role::InOutTensor),
            ],
        );
        let inplace = two_phase(
            "InplaceIndexCopy",
            vec![
                tensor("selfRef", Role::InOutTensor),
                attr("dim", "int64_t", &[]),
            ],
        );
        let mut ops = vec![inplace, base];
        link(&mut ops);
        let pairs = arg_pairs(&ops[0]);
        assert_eq!(pairs[2], ("outRef".to_string(), "selfRef".to_string()));
    }
}
