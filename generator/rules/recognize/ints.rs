//! Integer attributes against tensor sizes and each other: "self在N维度上的空间大小不等于N",
//! "self的元素数量不等于N*C*HxW", "self第三维度及之后维度的size乘积不(?:等于|为|是)HxW",
//! "meanOut与rstdOut的shape不为(N, group)", "C不能被group整除".

use crate::ir::{OpIr, Param, ParamKind, Role};
use crate::rules::text::{self, re};
use aclnn_runtime::{Factor, Rule};

const NAME: &str = r"[A-Za-z_][A-Za-z0-9_]*";

re!(
    NOT_DIVISIBLE,
    &format!(r"^\s*({NAME})不能被({NAME})整除\s*$")
);
re!(
    NUMEL_NOT,
    &format!(
        r"^\s*({NAME})的元素(?:数量|个数)不(?:等于|为|是)\s*({NAME}(?:\s*[*×]\s*{NAME})*)\s*$"
    )
);
re!(
    AXIS_SIZE_NOT,
    &format!(r"^\s*({NAME})在([NC])维度上的(?:空间)?大小不(?:等于|为|是)({NAME})\s*$")
);
re!(
    TRAILING_PRODUCT_NOT,
    &format!(
        r"^\s*({NAME})第([一二三四五六七八])维度?及之后(?:的)?维度的size乘积不(?:等于|为|是)({NAME})\s*(?:\(.*\))?\s*$"
    )
);
re!(
    SHAPE_NOT_TUPLE,
    &format!(
        r"^\s*({NAME}(?:\s*(?:与|和|、)\s*{NAME})*)的shape(?:不为|不是|不等于)\s*[\(\[]([^()\[\]]+)[\)\]]\s*$"
    )
);

/// The rules of a clause relating integer attributes to tensor sizes, or `None` when it is
/// no such clause (or names something else than integer attributes and tensors).
pub(super) fn int_relation_rules(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    if let Some(c) = NOT_DIVISIBLE.captures(clause) {
        let (param, by) = (int_attr(op, &c[1])?, int_attr(op, &c[2])?);
        return Some(vec![Rule::AttrMultipleOf { param, by }]);
    }
    if let Some(c) = NUMEL_NOT.captures(clause) {
        let tensor = tensor(op, &c[1])?;
        let attrs = attr_factors(op, c[2].split(['*', '×']))?;
        return Some(vec![equal(vec![Factor::Numel(tensor)], attrs)]);
    }
    if let Some(c) = AXIS_SIZE_NOT.captures(clause) {
        let param = tensor(op, &c[1])?;
        // The layout letters of aclnn's docs: N is the first dim, C the second.
        let dim = if &c[2] == "N" { 0 } else { 1 };
        let attr = int_attr(op, &c[3])?;
        return Some(vec![equal(
            vec![Factor::Dim { param, dim }],
            vec![Factor::Attr(attr)],
        )]);
    }
    if let Some(c) = TRAILING_PRODUCT_NOT.captures(clause) {
        let param = tensor(op, &c[1])?;
        let from = "一二三四五六七八"
            .chars()
            .position(|ch| c[2].starts_with(ch))?;
        let attr = int_attr(op, &c[3])?;
        // A tensor without those dims has the empty product 1 ("self为二维时，HxW需要为1").
        return Some(vec![equal(
            vec![Factor::DimsFrom { param, from }],
            vec![Factor::Attr(attr)],
        )]);
    }
    if let Some(c) = SHAPE_NOT_TUPLE.captures(clause) {
        let tensors: Option<Vec<String>> = c[1]
            .split(['与', '和', '、'])
            .map(|n| tensor(op, n.trim()))
            .collect();
        // "out的shape不是(N, C)": each dim an attribute's value; "out的shape不是[1]": a number.
        let dims: Option<Vec<Result<i64, Factor>>> = c[2]
            .split([',', '，'])
            .map(|d| match d.trim().parse::<i64>() {
                Ok(n) => Some(Ok(n)),
                Err(_) => int_attr(op, d.trim()).map(|a| Err(Factor::Attr(a))),
            })
            .collect();
        let dims = dims?;
        let mut rules = Vec::new();
        for param in tensors? {
            rules.push(Rule::RankIn {
                param: param.clone(),
                min: dims.len(),
                max: dims.len(),
            });
            for (dim, size) in dims.iter().enumerate() {
                let at = Factor::Dim {
                    param: param.clone(),
                    dim: dim as i64,
                };
                rules.push(match size {
                    Ok(n) => Rule::DimInRange {
                        param: param.clone(),
                        dim: dim as i64,
                        min: Some(*n),
                        max: Some(*n),
                    },
                    Err(attr) => equal(vec![at], vec![attr.clone()]),
                });
            }
        }
        return Some(rules);
    }
    None
}

fn equal(lhs: Vec<Factor>, rhs: Vec<Factor>) -> Rule {
    Rule::ProductsEqual { lhs, rhs }
}

fn attr_factors<'a>(op: &OpIr, names: impl Iterator<Item = &'a str>) -> Option<Vec<Factor>> {
    names
        .map(|n| int_attr(op, n.trim()).map(Factor::Attr))
        .collect()
}

fn int_attr(op: &OpIr, word: &str) -> Option<String> {
    let p = text::resolve(op, word)?;
    is_int_attr(p).then(|| p.name.clone())
}

fn is_int_attr(p: &Param) -> bool {
    p.role == Role::Attribute && p.kind() == ParamKind::Int
}

fn tensor(op: &OpIr, word: &str) -> Option<String> {
    text::resolve(op, word)
        .filter(|p| p.role.is_tensor())
        .map(|p| p.name.clone())
}
