//! The shape of a padded tensor (`Rule::ShapePadded`): a tensor's dims are another's plus the
//! pairs of an integer list, as the pad ops' docs write it. Read where a row states the sum
//! ("out最后一维的值不等于self最后一维的值加padding的两个值", "out后两维度的值不等于self后两维度的
//! 值加对应padding"), where a backward op's row names the forward pad's output ("gradOutput的shape
//! 需要与reflection_pad2d正向传播的output一致": the input padded), and where a row says a tensor's
//! shape is not the actual one ("out的shape与实际输出shape不匹配") and that tensor's own
//! description states the sum ("out最后一维度的数值等于self最后一维度的数值加padding前两个值"):
//! the row points at the shape, the description says what it is. And the bound of those pads
//! (`Rule::PadsBelowDims`): "padding的数值大于等于self对应维度的值", "padding内的数值大于等于self的
//! 维度大小".

use crate::ir::{OpIr, Param, Role};
use crate::rules::infer;
use crate::rules::text::{self, re};
use aclnn_runtime::Rule;

// "…加padding…", "…加对应padding…", "…加上对应的padding…": the list added to the dims.
re!(PLUS, r"加(?:上)?(?:对应的?|相应的?)?$");
// "gradOutput的shape需要与reflection_pad2d正向传播的output一致".
re!(
    FORWARD_OUTPUT,
    r"^([A-Za-z_][A-Za-z0-9_]*)的?shape需要?与([A-Za-z0-9_]+)正向(?:传播|计算)?的?(?:output|输出)(?:的?shape)?(?:一致|相同|相等)"
);
// "out的shape与实际输出shape不匹配", "out shape与实际不匹配".
re!(
    ACTUAL_SHAPE,
    r"^([A-Za-z_][A-Za-z0-9_]*)的?shape与实际(?:的?输出)?(?:的?shape)?不(?:匹配|一致|相同|相等)"
);
// "padding的数值大于等于self对应维度的值", "padding里的数值大于等于对应self的维度大小": the list's
// values reach the dims of a tensor.
re!(
    PADS_REACH_DIMS,
    r"^[A-Za-z_][A-Za-z0-9_]*(?:内|里|中)?的?(?:数值|值|元素)大于等于(?:对应的?)?[A-Za-z_][A-Za-z0-9_]*(?:的)?(?:对应|最后一|后[一二三两])?维"
);
// A statement of equality or its violation.
re!(EQUALITY, r"等于|一致|相同|相等");

/// The `ShapePadded` rule a condition states, if it states one.
pub(super) fn padded_rules(op: &OpIr, text: &str) -> Option<Vec<Rule>> {
    let text = text.trim().trim_end_matches(['。', '；', ';']);
    if let Some(rule) = plus_list(op, text) {
        return Some(vec![rule]);
    }
    if PADS_REACH_DIMS.is_match(text) {
        let named = text::mentions(op, text);
        let [list, tensor] = &named[..] else {
            return None;
        };
        if !(infer::is_int_list(list.param) && tensor.param.role.is_tensor()) {
            return None;
        }
        return Some(vec![Rule::PadsBelowDims {
            param: list.param.name.clone(),
            tensor: tensor.param.name.clone(),
        }]);
    }
    if let Some(c) = FORWARD_OUTPUT.captures(text) {
        // The forward op is a pad: its output is its input padded by the pad list.
        if !c[2].to_ascii_lowercase().contains("pad") {
            return None;
        }
        let tensor = tensor(op, &c[1])?;
        let inputs: Vec<&Param> = op
            .params
            .iter()
            .filter(|p| p.name != tensor.name && is_input(p))
            .collect();
        let lists: Vec<&Param> = op
            .params
            .iter()
            .filter(|p| infer::is_int_list(p) && p.name.to_ascii_lowercase().contains("pad"))
            .collect();
        let ([base], [list]) = (&inputs[..], &lists[..]) else {
            return None;
        };
        return Some(vec![padded(tensor, base, list)]);
    }
    let c = ACTUAL_SHAPE.captures(text)?;
    let tensor = tensor(op, &c[1])?;
    tensor
        .constraints
        .iter()
        .find_map(|sentence| plus_list(op, sentence).filter(|r| padded_param(r) == tensor.name))
        .map(|rule| vec![rule])
}

/// "A…不等于B…加L…": two tensors and an integer list, and nothing else, the list right after
/// the 加 that follows B; A, the subject, is named first.
fn plus_list(op: &OpIr, clause: &str) -> Option<Rule> {
    if !EQUALITY.is_match(clause) {
        return None;
    }
    let named = text::mentions(op, clause);
    let [a, b, l] = &named[..] else {
        return None;
    };
    if !(a.param.role.is_tensor() && is_input(b.param) && infer::is_int_list(l.param)) {
        return None;
    }
    if !(a.at < b.at && b.at < l.at && PLUS.is_match(&clause[..l.at])) {
        return None;
    }
    Some(padded(a.param, b.param, l.param))
}

fn padded(tensor: &Param, base: &Param, list: &Param) -> Rule {
    Rule::ShapePadded {
        param: tensor.name.clone(),
        base: base.name.clone(),
        list: list.name.clone(),
    }
}

fn padded_param(rule: &Rule) -> &str {
    match rule {
        Rule::ShapePadded { param, .. } => param,
        _ => "",
    }
}

fn tensor<'a>(op: &'a OpIr, word: &str) -> Option<&'a Param> {
    text::resolve(op, word).filter(|p| p.role.is_tensor())
}

fn is_input(p: &Param) -> bool {
    matches!(p.role, Role::InputTensor | Role::InOutTensor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{attr, op, tensor as t};

    fn pad_op(out: &str, constraints: &[&str]) -> OpIr {
        let mut o = t(out, Role::OutputTensor);
        o.constraints = constraints.iter().map(|s| s.to_string()).collect();
        op(
            "ReflectionPad2d",
            &[("ascend910b", true)],
            vec![
                t("self", Role::InputTensor),
                attr("padding", "const aclIntArray*", &[]),
                o,
            ],
        )
    }

    fn padded_rule(out: &str) -> Vec<Rule> {
        vec![Rule::ShapePadded {
            param: out.into(),
            base: "self".into(),
            list: "padding".into(),
        }]
    }

    #[test]
    fn a_row_stating_the_sum() {
        let o = pad_op("out", &[]);
        for row in [
            "out最后一维的值不等于self最后一维的值加padding的两个值。",
            "out后两维度的值不等于self后两维度的值加对应padding。",
            "out后三维度的值不等于self后三维度的值加对应padding。",
        ] {
            assert_eq!(padded_rules(&o, row), Some(padded_rule("out")), "{row}");
        }
        // No sum of the list, or the list not after the 加: no padding.
        assert_eq!(padded_rules(&o, "out的shape与self和padding不一致"), None);
        assert_eq!(
            padded_rules(&o, "out后两维度的值不等于self后两维度的值。"),
            None
        );
    }

    #[test]
    fn pads_reaching_the_dims_they_pad() {
        let o = pad_op("out", &[]);
        let want = Some(vec![Rule::PadsBelowDims {
            param: "padding".into(),
            tensor: "self".into(),
        }]);
        for row in [
            "padding的数值大于等于self对应维度的值。",
            "padding内的数值大于等于self的维度大小。",
            "padding里的数值大于等于对应self的维度大小。",
            "padding的数值大于等于self最后一维度的值。",
            "padding内的数值大于等于self的维度。",
        ] {
            assert_eq!(padded_rules(&o, row), want, "{row}");
        }
        // A bound by a number, or a tensor's values, is no pad bound.
        assert_eq!(padded_rules(&o, "padding的数值大于等于7。"), None);
        assert_eq!(padded_rules(&o, "self的数值大于等于out的维度。"), None);
    }

    #[test]
    fn a_backward_row_naming_the_forward_pad() {
        let o = op(
            "ReflectionPad2dBackward",
            &[("ascend910b", true)],
            vec![
                t("gradOutput", Role::InputTensor),
                t("self", Role::InputTensor),
                attr("padding", "const aclIntArray*", &[]),
                t("gradInput", Role::OutputTensor),
            ],
        );
        let want = Some(vec![Rule::ShapePadded {
            param: "gradOutput".into(),
            base: "self".into(),
            list: "padding".into(),
        }]);
        for row in [
            "gradOutput的shape需要与reflection_pad2d正向传播的output一致。",
            "gradOutput shape需要与circular_pad3d正向传播的output一致。",
        ] {
            assert_eq!(
                padded_rules(&o, &text::normalize_condition(row)),
                want,
                "{row}"
            );
        }
        // A forward op that is no pad says nothing of the padding.
        let row = "gradOutput的shape需要与softmax正向传播的output一致。";
        assert_eq!(padded_rules(&o, row), None);
    }

    #[test]
    fn the_actual_shape_as_the_tensor_describes_it() {
        let described = pad_op(
            "out",
            &[
                "维度与self一致",
                "out最后一维度的数值等于self最后一维度的数值加padding前两个值",
            ],
        );
        let row = "out的shape与实际输出shape不匹配。";
        assert_eq!(padded_rules(&described, row), Some(padded_rule("out")));
        assert_eq!(
            padded_rules(
                &described,
                &text::normalize_condition("out shape与实际不匹配")
            ),
            Some(padded_rule("out"))
        );
        // A description that states no sum leaves the actual shape unread.
        let silent = pad_op("out", &["维度与self一致"]);
        assert_eq!(padded_rules(&silent, row), None);
    }
}
