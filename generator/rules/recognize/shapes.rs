//! Shapes, ranks, dims, lengths and element counts: "维度大于8", "shape不一致", "长度不等于2",
//! broadcasting.

use super::common::names;
use super::common::same_rule;
use super::patterns::*;
use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, ParamKind, Role};
use crate::rules::infer;
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{Factor, Rule};

/// The D*H*W limit applies to the forward input: `self` when the op has it, else its first input.
pub(super) fn element_count_rule(op: &OpIr, dims: usize) -> Result<Vec<Rule>, Manual> {
    let inputs = text::input_tensors(op);
    let param = inputs
        .iter()
        .find(|p| p.name == "self")
        .or(inputs.first())
        .ok_or(Manual::new(
            ManualKind::UnknownName,
            "the op has no input tensor for the element-count limit",
        ))?;
    Ok(vec![Rule::ElementCountMax {
        param: param.name.clone(),
        dims,
        max: i32::MAX as i64,
    }])
}

/// "x的最后一维不能被8整除", "x的最后一维不是2的倍数", "尾轴大小不是偶数" (a multiple of 2), "self根据指定的dim所对应的维度不能整除2"
/// (the dim an integer attribute names). `None` when the clause says something else.
pub(super) fn dim_multiple_rule(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let tensor = |w: &str| {
        text::resolve(op, w)
            .filter(|p| p.role.is_tensor())
            .map(|p| p.name.clone())
    };
    let divisor = |m: Option<regex::Match>| -> Option<i64> {
        match m {
            None => Some(2),
            Some(m) => m.as_str().parse().ok().filter(|n| *n >= 2),
        }
    };
    if let Some(c) = DIM_MULTIPLE.captures(clause) {
        let dim = ordinal_dim(&c[2])?;
        let by = divisor(c.get(3).or(c.get(4)))?;
        // "x或yOut的最后一维不是偶数": each named tensor.
        return split_names(&c[1])
            .map(|w| {
                Some(Rule::DimMultipleOf {
                    param: tensor(w)?,
                    dim,
                    dim_attr: None,
                    by,
                })
            })
            .collect();
    }
    let c = DIM_MULTIPLE_AT.captures(clause)?;
    let attr = text::resolve(op, &c[2])
        .filter(|p| p.role == Role::Attribute && p.kind() == ParamKind::Int)?;
    Some(vec![Rule::DimMultipleOf {
        param: tensor(&c[1])?,
        dim: 0,
        dim_attr: Some(attr.name.clone()),
        by: divisor(c.get(3).or(c.get(4)).or(c.get(5)))?,
    }])
}

/// The names of a list "x、y或z".
fn split_names(list: &str) -> impl Iterator<Item = &str> {
    list.split(['、', '或', '者', '和', '与'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
}

/// "x的第一维度超出范围[1, 262144]", "x的第四维大于4096或者等于0": bounds on one positional dim of
/// each named tensor; a clause naming none ("或者第二维度超出[1, 256]") is about the tensors of
/// the clause before. The tensors are returned for the clauses after.
pub(super) fn dim_range_rules<'a>(
    op: &'a OpIr,
    clause: &str,
    inherited: &[&'a Param],
) -> Option<(Vec<Rule>, Vec<&'a Param>)> {
    let c = DIM_RANGE.captures(clause)?;
    let subjects: Vec<&Param> = match c.get(1) {
        Some(list) => split_names(list.as_str())
            .map(|w| text::resolve(op, w).filter(|p| p.role.is_tensor()))
            .collect::<Option<_>>()?,
        None => inherited
            .iter()
            .copied()
            .filter(|p| p.role.is_tensor())
            .collect(),
    };
    if subjects.is_empty() {
        return None;
    }
    let dim = ordinal_dim(&c[2])?;
    let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<i64>().ok());
    // A size is never negative: "等于0" rejected means at least 1.
    let (min, max) = if let (Some(lo), Some(hi)) = (num(3), num(4)) {
        (Some(lo), Some(hi))
    } else if let Some(hi) = num(5) {
        (c.get(6).map(|_| 1), Some(hi))
    } else if let Some(hi) = num(7) {
        (Some(1), Some(hi))
    } else if let Some(lo) = num(8) {
        (Some(lo), None)
    } else if let Some(n) = num(9) {
        // "spatialShape的最后一轴不是2": that size and no other.
        (Some(n), Some(n))
    } else {
        (Some(1), None)
    };
    if min.zip(max).is_some_and(|(lo, hi)| lo > hi) {
        return None;
    }
    let rules = subjects
        .iter()
        .map(|p| Rule::DimInRange {
            param: p.name.clone(),
            dim,
            min,
            max,
        })
        .collect();
    Some((rules, subjects))
}

// An output's shape against the one the op computes: "out shape与实际不匹配", "reduce shape与实际
// 不匹配", "self与out的shape不满足计算公式中的推导规则", "out的shape出现如下情况会出错".
re!(
    COMPUTED_SHAPE_MISMATCH,
    r"(?i)(?:shape|形状)\s*(?:与|和)\s*实际[^。；;]{0,6}不(?:匹配|一致|相符|符)|(?:shape|形状)\s*不满足[^。；;]{0,12}推导|(?:shape|形状)\s*出现如下情况会出错"
);

/// Whether a row holds an output to the shape the op computes (`COMPUTED_SHAPE_MISMATCH`).
pub fn states_computed_shape_mismatch(condition: &str) -> bool {
    COMPUTED_SHAPE_MISMATCH.is_match(condition)
}

re!(
    INHERITED_DIMS_EQUAL,
    r"^(?:或者|或)?\s*(第\s*[一二三四五六七八\d]\s*个?维度?|最后一个?维度?)(?:\s*(?:和|与|、)\s*(第\s*[一二三四五六七八\d]\s*个?维度?|最后一个?维度?))?\s*的?(?:大小|size)?\s*(?:与|和|跟)\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*(第\s*[一二三四五六七八\d]\s*个?维度?|最后一个?维度?)\s*的?(?:大小|size)?\s*不(?:一致|相等|相同)$"
);

/// "kroneckerP1的维度不为2，或者第一维度和第二维度与x的第二维度不一致": dims of the tensor the clause
/// before names, each equal to a dim of another tensor. `None` unless exactly one tensor is inherited.
pub(super) fn inherited_dims_equal_rules(
    op: &OpIr,
    clause: &str,
    inherited: &[&Param],
) -> Option<Vec<Rule>> {
    let c = INHERITED_DIMS_EQUAL.captures(clause.trim())?;
    let [subject] = inherited else {
        return None;
    };
    if !subject.role.is_tensor() {
        return None;
    }
    let other = text::resolve(op, &c[3]).filter(|p| p.role.is_tensor())?;
    let rhs_dim = ordinal_dim(&c[4])?;
    [c.get(1), c.get(2)]
        .into_iter()
        .flatten()
        .map(|m| {
            Some(Rule::DimsEqual {
                lhs: subject.name.clone(),
                lhs_dim: ordinal_dim(m.as_str())?,
                rhs: other.name.clone(),
                rhs_dim,
            })
        })
        .collect()
}

/// "最后一维"/"最后一轴"/"尾轴" → -1, "第二维"/"第二轴" → 1, "倒数第二维" → -2, "第0轴" → 0.
fn ordinal_dim(s: &str) -> Option<i64> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if s.starts_with("最后") || s.starts_with("尾轴") {
        return Some(-1);
    }
    let s = s.trim_end_matches(['维', '度', '个', '轴']);
    let last = s.chars().last()?;
    let n = match last.to_digit(10) {
        // "第0轴" counts from 0 (as digits past it may too, which no text tells apart).
        Some(0) if !s.starts_with("倒数") => return Some(0),
        Some(d) => i64::from(d),
        None => "一二三四五六七八".chars().position(|d| d == last)? as i64 + 1,
    };
    Some(if s.starts_with("倒数") { -n } else { n - 1 })
}

pub(super) fn fraction_rule(op: &OpIr, c: &regex::Captures) -> Result<Vec<Rule>, Manual> {
    let lhs = text::resolve(op, &c[1]).ok_or_else(|| {
        Manual::new(
            ManualKind::UnknownName,
            format!("{} is not a parameter", &c[1]),
        )
    })?;
    let rhs = text::resolve(op, &c[2]).ok_or_else(|| {
        Manual::new(
            ManualKind::UnknownName,
            format!("{} is not a parameter", &c[2]),
        )
    })?;
    let (a, b): (i64, i64) = (
        c[3].parse()
            .map_err(|_| Manual::new(ManualKind::Unrecognized, "bad fraction"))?,
        c[4].parse()
            .map_err(|_| Manual::new(ManualKind::Unrecognized, "bad fraction"))?,
    );
    if a <= 0 || b <= 0 {
        return Err(Manual::new(
            ManualKind::Unrecognized,
            "the fraction is not positive",
        ));
    }
    // lhs ≤ rhs · a/b  ⇔  b·lhs ≤ a·rhs
    Ok(vec![Rule::ListElemsAtMostFraction {
        lhs: lhs.name.clone(),
        rhs: rhs.name.clone(),
        num: b,
        den: a,
    }])
}

re!(
    DIMS_AGAINST_SIZES,
    r"^([A-Za-z_][A-Za-z0-9_]*)\s*在\s*(\d+)\s*(?:和|、|,|，)\s*(\d+)\s*维度?上的\s*size(?:大小)?\s*与\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:、|和|与|,|，)\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*size(?:大小)?\s*不(?:完全)?(?:相同|一致|相等)$"
);

/// "out在0和1维度上的size大小与self、vec2的size大小不完全相同": the named dims of one tensor, in
/// order, are the sizes of the 1-D tensors named after (a 1-D tensor's size is its one dim).
/// `None` for any other clause, or where a tensor after is not documented as 1-D.
pub(super) fn dims_against_sizes_rules(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let c = DIMS_AGAINST_SIZES.captures(clause)?;
    let tensor = |w: &str| text::resolve(op, w).filter(|p| p.role.is_tensor());
    let lhs = tensor(&c[1])?;
    let (d0, d1): (i64, i64) = (c[2].parse().ok()?, c[3].parse().ok()?);
    let sizes = [tensor(&c[4])?, tensor(&c[5])?];
    if sizes.iter().any(|p| infer::rank_of(p) != Some((1, 1))) {
        return None;
    }
    Some(
        [d0, d1]
            .iter()
            .zip(sizes)
            .map(|(&dim, p)| Rule::DimsEqual {
                lhs: lhs.name.clone(),
                lhs_dim: dim,
                rhs: p.name.clone(),
                rhs_dim: 0,
            })
            .collect(),
    )
}

/// "selfRef和other做broadcast后的shape不等于selfRef的shape", "broadcast后的shape不等于selfRef的
/// shape": the broadcast shape of the operands (those named before the broadcast, else the op's
/// input tensors) is an input's own shape, the in-place destination's. `None` where the shape
/// compared with is no input's (an output's is `broadcast_rules`' concern).
pub(super) fn broadcast_onto_input_rules(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let result = BROADCAST_RESULT.find(clause)?;
    // (A name is mentioned once per text, so the two sides are looked at apart.)
    let after = text::mentions(op, &clause[result.end()..]);
    let [dest] = after.as_slice() else {
        return None;
    };
    let dest = dest.param;
    if !matches!(dest.role, Role::InputTensor | Role::InOutTensor) {
        return None;
    }
    let mut operands: Vec<&Param> = text::mentions(op, &clause[..result.start()])
        .iter()
        .map(|m| m.param)
        .filter(|p| p.role.is_tensor())
        .collect();
    if operands.is_empty() {
        operands = text::input_tensors(op)
            .into_iter()
            .filter(|p| p.role.is_tensor())
            .collect();
    }
    if operands.len() < 2 || !operands.iter().any(|p| p.name == dest.name) {
        return None;
    }
    Some(vec![
        Rule::BroadcastTogether {
            params: names(&operands),
        },
        Rule::BroadcastShape {
            params: names(&operands),
            out: dest.name.clone(),
        },
    ])
}

/// "A的shape不满足单向广播B的shape": every tensor but the last broadcasts to the last;
/// without a direction the tensors broadcast together.
///
/// `conditional`: the clause holds under a condition of its own ("当reduction的值为0时，…").
pub(super) fn broadcast_rules(
    subjects: &[&Param],
    clause: &str,
    conditional: bool,
) -> Result<Vec<Rule>, Manual> {
    let tensors: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role.is_tensor())
        .collect();
    if tensors.len() < 2 {
        return Err(Manual::new(
            ManualKind::UnknownName,
            "a broadcast condition that names fewer than two tensors",
        ));
    }
    if PARTICULAR_DIMS.is_match(&NOTE_IN_PARENS.replace_all(clause, "")) {
        // "batch1和batch2的第一维度不相等或不能做broadcast操作": those dims, not the shapes.
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!("a broadcast of particular dims (“{clause}”) is not in the vocabulary"),
        ));
    }
    if !ONE_WAY.is_match(clause) {
        // An output among them holds the broadcast result, so every input broadcasts one-way to
        // it ("gradOutput、self、gradInput的维度关系不满足可broadcast原则"): an output is written,
        // never broadcast.
        let (outputs, inputs): (Vec<&Param>, Vec<&Param>) = tensors
            .iter()
            .partition(|p| matches!(p.role, Role::OutputTensor));
        if outputs.is_empty() || inputs.is_empty() {
            return Ok(vec![Rule::BroadcastTogether {
                params: names(&tensors),
            }]);
        }
        let mut rules = Vec::new();
        if inputs.len() >= 2 {
            rules.push(Rule::BroadcastTogether {
                params: names(&inputs),
            });
        }
        if BROADCAST_RESULT.is_match(clause) {
            // "gradOutput、self和target做broadcast后的shape与out不一致": the output's shape is
            // the broadcast shape itself, not merely one the inputs broadcast to.
            // An output whose table gives its shape only conditionally (a loss's out under
            // reduction 'none') keeps the inputs' check alone, unless the row says when.
            rules.extend(
                outputs
                    .iter()
                    .filter(|out| conditional || !infer::shape_stated_conditionally(out))
                    .map(|out| Rule::BroadcastShape {
                        params: names(&inputs),
                        out: out.name.clone(),
                    }),
            );
            return Ok(rules);
        }
        for out in &outputs {
            rules.extend(inputs.iter().map(|i| Rule::Broadcastable {
                from: i.name.clone(),
                to: out.name.clone(),
                dims: None,
            }));
        }
        return Ok(rules);
    }
    let Some((to, from)) = tensors.split_last() else {
        return Err(Manual::new(
            ManualKind::UnknownName,
            "a broadcast condition that names no tensor",
        ));
    };
    let dims = HW_ONLY.is_match(clause).then(|| vec![-2, -1]);
    Ok(from
        .iter()
        .map(|f| Rule::Broadcastable {
            from: f.name.clone(),
            to: to.name.clone(),
            dims: dims.clone(),
        })
        .collect())
}

pub(super) fn dim_value_rules(clause: &str, subjects: &[&Param]) -> Result<Vec<Rule>, Manual> {
    if NAMED_AXES.is_match(clause) {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!("a condition on some named axes (“{clause}”): the vocabulary bounds every dim"),
        ));
    }
    // "shape中不能有0": a dim of 0; a list's elements may be negative, so only tensors read so.
    let zero_only =
        ZERO_DIM.is_match(clause) && !LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause);
    if !LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause) && !zero_only {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!("a condition on dim sizes other than their sign (“{clause}”)"),
        ));
    }
    let allow_zero = LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause);
    Ok(subjects
        .iter()
        .filter_map(|p| {
            if zero_only && !p.role.is_tensor() {
                None
            } else if p.role.is_tensor() {
                Some(Rule::DimsPositive {
                    param: p.name.clone(),
                    allow_zero,
                })
            } else if infer::is_int_list(p) {
                Some(Rule::ListElemsInRange {
                    param: p.name.clone(),
                    min: Some(if allow_zero { 0 } else { 1 }),
                    max: None,
                })
            } else {
                None
            }
        })
        .collect())
}

/// The maximum rank of an aclnn tensor.
pub(super) const MAX_RANK: usize = 8;

pub(super) fn rank_rules(
    clause: &str,
    subjects: &[&Param],
    mismatch: bool,
) -> Result<Vec<Rule>, Manual> {
    let tensors: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role.is_tensor())
        .collect();
    if mismatch && RANK_ARITHMETIC.is_match(clause) {
        // "mxscaleOut的维度数不等于输入x1的维度数+1": ranks that differ by a stated amount.
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!("a rank relation with arithmetic (“{clause}”) is not in the vocabulary"),
        ));
    }
    if mismatch {
        return same_rule(&tensors, "rank", |params| Rule::RankSame { params });
    }
    if let Some((min, max)) = stated_rank(clause)? {
        let mut rules: Vec<Rule> = tensors
            .iter()
            .map(|p| Rule::RankIn {
                param: p.name.clone(),
                min,
                max,
            })
            .collect();
        // "kernelSize的维度不等于2": the "rank" of a list attribute is its length.
        rules.extend(
            subjects
                .iter()
                .filter(|p| p.kind().is_array())
                .map(|p| Rule::ListLenIn {
                    param: p.name.clone(),
                    lens: (min..=max).collect(),
                }),
        );
        return Ok(rules);
    }
    let mut rules = Vec::new();
    for p in subjects {
        if p.role.is_tensor() {
            if let Some((min, max)) = infer::rank_of(p) {
                rules.push(Rule::RankIn {
                    param: p.name.clone(),
                    min,
                    max,
                });
            }
        } else if let Some(lens) = infer::list_lens(p) {
            rules.push(Rule::ListLenIn {
                param: p.name.clone(),
                lens,
            });
        }
    }
    Ok(rules)
}

/// The rank range a clause states: "不等于4或5" → 4..5, "超过8维" → 0..8, "小于2维" → 2..8.
pub(super) fn stated_rank(clause: &str) -> Result<Option<(usize, usize)>, Manual> {
    let clause = &crate::read::rank_words(clause);
    if ZERO_RANK.is_match(clause) {
        // "self的维度等于0": a 0-d tensor is the error.
        return Ok(Some((1, MAX_RANK)));
    }
    if let Some(c) = CHAINED_RANK.captures(clause) {
        // "1<=rank(data)<=8": the ranks allowed, as a chain.
        if let (Ok(lo), Ok(hi)) = (c[1].parse::<usize>(), c[2].parse::<usize>()) {
            return Ok(Some((lo, hi)));
        }
    }
    if let Some(c) = REQUIRED_RANK.captures(clause) {
        // "rois需为2维": the row states the ranks allowed.
        let nums: Vec<usize> = text::int_alternatives(&c[1].replace('-', " "))
            .into_iter()
            .filter_map(|v| usize::try_from(v).ok())
            .collect();
        if let (Some(&lo), Some(&hi)) = (nums.iter().min(), nums.iter().max()) {
            let ranged = c[1].contains(['-', '~', '到']);
            if !ranged && (lo..=hi).any(|n| !nums.contains(&n)) {
                return Err(Manual::new(
                    ManualKind::Vocabulary,
                    format!("the rank set {nums:?} has gaps; RankIn holds a range only"),
                ));
            }
            return Ok(Some((lo, hi)));
        }
    }
    // "大于8维或者小于2维": each statement rejects on its own, so the ranks allowed are those no
    // statement rejects; "不是3维且不是4维": only together do they reject, so the ranks either
    // allows are allowed.
    let mut allowed: Option<(usize, usize)> = None;
    let mut last_end = 0;
    for c in RANK_NUMBERS.captures_iter(clause) {
        let Some(range) = rank_statement(&c)? else {
            continue;
        };
        let whole = c.get(0).map_or(0..0, |m| m.range());
        let joint = clause[last_end..whole.start].contains('且');
        last_end = whole.end;
        allowed = Some(match allowed {
            None => range,
            Some((lo, hi)) if joint => {
                if range.0 > hi + 1 || lo > range.1 + 1 {
                    return Err(Manual::new(ManualKind::Vocabulary, format!(
                        "the ranks {lo}..{hi} and {}..{} of “{clause}” leave a gap; RankIn holds a range only",
                        range.0, range.1
                    )));
                }
                (lo.min(range.0), hi.max(range.1))
            }
            Some((lo, hi)) => (lo.max(range.0), hi.min(range.1)),
        });
    }
    match allowed {
        Some((lo, hi)) if lo > hi => Err(Manual::new(
            ManualKind::Contradiction,
            format!("“{clause}” rejects every rank"),
        )),
        other => Ok(other),
    }
}

re!(
    CHAINED_RANK,
    r"(\d+)\s*(?:<=|≤|小于等于)\s*rank\s*\(\s*[A-Za-z_][A-Za-z0-9_]*\s*\)\s*(?:<=|≤|小于等于)\s*(\d+)"
);

/// The ranks one statement allows ("超过8维" → 0..8, "不等于4或5" → 4..5); `None` without
/// numbers.
fn rank_statement(c: &regex::Captures) -> Result<Option<(usize, usize)>, Manual> {
    let nums: Vec<usize> = text::int_alternatives(&c[2].replace('-', " "))
        .into_iter()
        .filter_map(|v| usize::try_from(v).ok())
        .collect();
    let (Some(&lo), Some(&hi)) = (nums.iter().min(), nums.iter().max()) else {
        return Ok(None);
    };
    Ok(Some(match &c[1] {
        "超过" | "超出" | "大于" | ">" => (0, lo),
        "小于" | "<" => (lo, MAX_RANK),
        // "不超过8维" states the requirement (no rank above 8 exists to reject): ranks ≤ 8.
        "不大于" | "不超过" | "小于等于" if hi >= MAX_RANK => (0, MAX_RANK),
        // "self维度不大于1": rank 1 and below is the error.
        "不大于" | "不超过" | "小于等于" => (hi + 1, MAX_RANK),
        "不小于" | "大于等于" => (0, lo.saturating_sub(1)),
        _ => {
            let ranged = c[2].contains(['-', '~', '到', '[']);
            if !ranged && (lo..=hi).any(|n| !nums.contains(&n)) {
                return Err(Manual::new(
                    ManualKind::Vocabulary,
                    format!("the rank set {nums:?} has gaps; RankIn holds a range only"),
                ));
            }
            (lo, hi)
        }
    }))
}

pub(super) fn shape_rules(
    op: &OpIr,
    clause: &str,
    tensors: &[&Param],
    mismatch: bool,
) -> Result<Vec<Rule>, Manual> {
    if mismatch {
        if EXCEPT.is_match(clause) {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                "a shape equality except some dims is not in the vocabulary",
            ));
        }
        if let Some(rule) = shape_from_list_rule(op, clause, tensors) {
            return Ok(vec![rule]);
        }
        if DERIVED_SHAPE.is_match(clause) {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                format!("a shape derived from another (“{clause}”) is not in the vocabulary"),
            ));
        }
        if let Some(part) = PART_OF_SHAPE.find(clause) {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                format!(
                    "a relation of a part of a shape (“{}”) is not in the vocabulary",
                    part.as_str()
                ),
            ));
        }
        let lists: Vec<&Param> = text::mentions(op, clause)
            .into_iter()
            .map(|m| m.param)
            .filter(|p| infer::is_int_list(p))
            .collect();
        if let ([tensor], [list]) = (tensors, lists.as_slice()) {
            // "weight的shape与normalizedShape不相等", "input的shape与normalizedShape右对齐时…".
            return Ok(vec![Rule::ShapeMatchesList {
                param: tensor.name.clone(),
                list: list.name.clone(),
                trailing: clause.contains("右对齐")
                    || clause.contains("尾")
                    || clause.contains("最后"),
            }]);
        }
        if let Some((a, b)) = related_otherwise(op, tensors) {
            return Err(Manual::new(
                ManualKind::Contradiction,
                format!(
                "the parameter table gives {a} and {b} different shapes, so “{clause}” is not an \
                 equality"
            ),
            ));
        }
        return same_rule(tensors, "shape", |params| Rule::ShapeSame { params });
    }
    if !OUT_OF_RANGE.is_match(clause) && !MISMATCH.is_match(clause) {
        return Err(Manual::new(
            ManualKind::Unrecognized,
            format!("no shape relation recognized in “{clause}”"),
        ));
    }
    if !CONSTRAINT_WORDS.is_match(clause) && !SUPPORTED_RANGE.is_match(clause) {
        // "shape不正确", "shape不合法": the doc does not say which shapes are wrong; guessing
        // from the parameter rows rejects valid calls.
        return Err(Manual::new(
            ManualKind::Unstated,
            format!("a shape condition that names no relation or constraint (“{clause}”)"),
        ));
    }
    // "x与out的shape不满足约束", "shape不在支持的范围之内": the shapes the parameter table
    // states (its rank column, the relations and dims its descriptions give) are the range.
    let subject_names = names(tensors);
    let mut rules = Vec::new();
    for p in tensors {
        if let Some((min, max)) = infer::rank_of(p) {
            rules.push(Rule::RankIn {
                param: p.name.clone(),
                min,
                max,
            });
        }
        for rule in infer::relation_rules(op, p) {
            let inside = match &rule {
                Rule::ShapeSame { params }
                | Rule::RankSame { params }
                | Rule::BroadcastTogether { params } => {
                    params.iter().all(|n| subject_names.contains(n))
                }
                Rule::BroadcastShape { params, out } => params
                    .iter()
                    .chain([out])
                    .all(|n| subject_names.contains(n)),
                Rule::Broadcastable { to, .. } => subject_names.contains(to),
                _ => false,
            };
            // Each tensor's description states a mutual relation again ("与self满足broadcast
            // 关系" under target, "与target…" under self): one rule.
            if inside && !rules.iter().any(|r| same_group_relation(r, &rule)) {
                rules.push(rule);
            }
        }
    }
    rules.extend(infer::named_dim_rules(tensors));
    for p in tensors {
        rules.extend(infer::stated_dim_rules(op, p, tensors));
    }
    // "self、padding和out的输入shape在支持范围之外": the shape of an integer list named beside
    // the tensors is its length, as the table states it ("长度为2"). Lists named alone keep
    // their own rows: a table's lengths for one variant of the op ("conv2d: 2") are no range.
    let beside = if tensors.is_empty() {
        Vec::new()
    } else {
        text::mentions(op, clause)
    };
    for m in beside {
        let p = m.param;
        if !infer::is_int_list(p) || rules.iter().any(|r| list_len_of(r) == Some(&p.name)) {
            continue;
        }
        if let Some(lens) = infer::list_lens(p) {
            rules.push(Rule::ListLenIn {
                param: p.name.clone(),
                lens,
            });
        }
    }
    Ok(rules)
}

fn list_len_of(rule: &Rule) -> Option<&String> {
    match rule {
        Rule::ListLenIn { param, .. } => Some(param),
        _ => None,
    }
}

/// Whether two rules state one symmetric relation over one set of tensors.
fn same_group_relation(a: &Rule, b: &Rule) -> bool {
    let set = |r: &Rule| match r {
        Rule::ShapeSame { params }
        | Rule::RankSame { params }
        | Rule::BroadcastTogether { params } => {
            let mut names = params.clone();
            names.sort();
            Some((std::mem::discriminant(r), names))
        }
        _ => None,
    };
    set(a).is_some() && set(a) == set(b)
}

/// "out的shape与self的shape和outputSize推导出的shape结果不一致": an output, an input and an
/// integer list named as a size, and nothing else; the output keeps the input's leading dims
/// and takes the list as its last ones.
pub(super) fn shape_from_list_rule(op: &OpIr, clause: &str, subjects: &[&Param]) -> Option<Rule> {
    if !DERIVED_SHAPE.is_match(clause) {
        return None;
    }
    let named: Vec<&Param> = text::mentions(op, clause)
        .into_iter()
        .map(|m| m.param)
        .collect();
    let [list] = named
        .iter()
        .filter(|p| infer::is_int_list(p))
        .collect::<Vec<_>>()[..]
    else {
        return None;
    };
    let (outputs, inputs): (Vec<&&Param>, Vec<&&Param>) = subjects
        .iter()
        .filter(|p| p.role.is_tensor())
        .partition(|p| p.role == Role::OutputTensor);
    match (&outputs[..], &inputs[..]) {
        ([out], [base]) if named.len() == 3 && SIZE_NAME.is_match(&list.name) => {
            Some(Rule::ShapeFromList {
                param: out.name.clone(),
                base: base.name.clone(),
                list: list.name.clone(),
            })
        }
        _ => None,
    }
}

pub(super) fn length_rules(clause: &str, subjects: &[&Param]) -> Result<Vec<Rule>, Manual> {
    let lists: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| {
            p.kind().is_array() || matches!(p.role, Role::InputTensorList | Role::OutputTensorList)
        })
        .collect();
    if lists.is_empty() {
        let tensors: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.role.is_tensor())
            .collect();
        let ints: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.role == Role::Attribute && p.kind() == ParamKind::Int)
            .collect();
        if let ([tensor], [int]) = (tensors.as_slice(), ints.as_slice()) {
            if MISMATCH.is_match(clause) && !clause.contains("维") && !clause.contains("轴") {
                // "out的size不等于bins": the tensor's element count is the attribute's value.
                return Ok(vec![Rule::ProductsEqual {
                    lhs: vec![Factor::Numel(tensor.name.clone())],
                    rhs: vec![Factor::Attr(int.name.clone())],
                }]);
            }
        }
        if !tensors.is_empty() && !clause.contains("维") && !clause.contains("轴") {
            // "scale或zeroPoint的size大小不是1": the tensor's element count.
            return numel_rules(clause, &tensors);
        }
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!("a length condition on non-list parameters (“{clause}”)"),
        ));
    }
    let int_lists: Vec<&Param> = lists
        .iter()
        .copied()
        .filter(|p| infer::is_int_list(p))
        .collect();
    if int_lists.len() >= 2
        && int_lists.len() == subjects.len()
        && MISMATCH.is_match(clause)
        && !NOT_EQUAL_VALUES.is_match(clause)
    {
        // "begin和end和strides的长度不一致": the integer lists have one length (tensor lists'
        // lengths are `list_len_same`'s).
        return Ok(vec![Rule::ListLenSame {
            params: names(&int_lists),
        }]);
    }
    // "长度既不等于1也不等于3": every value the clause excludes from the error is allowed.
    let stated: Vec<usize> = NOT_EQUAL_VALUES
        .captures_iter(clause)
        .flat_map(|c| text::int_alternatives(&c[1]))
        .filter_map(|v| usize::try_from(v).ok())
        .collect();
    let stated = (!stated.is_empty()).then_some(stated);
    Ok(lists
        .iter()
        .filter_map(|p| {
            let lens = stated.clone().or_else(|| infer::list_lens(p))?;
            Some(Rule::ListLenIn {
                param: p.name.clone(),
                lens,
            })
        })
        .collect())
}

/// "alpha元素个数不为1": the tensor's element count is one of the stated values.
pub(super) fn numel_rules(clause: &str, tensors: &[&Param]) -> Result<Vec<Rule>, Manual> {
    if let [first, rest @ ..] = tensors {
        let some_dims = clause.contains('维') || clause.contains('轴');
        if !rest.is_empty() && MISMATCH.is_match(clause) && !some_dims {
            // "scales和zeroPoints的size不相等", "source和index的元素数量不等": one element count
            // (the counts of some dims, "self的第0，2，3维的元素个数", are another matter).
            let numel = |p: &Param| vec![Factor::Numel(p.name.clone())];
            return Ok(rest
                .iter()
                .map(|p| Rule::ProductsEqual {
                    lhs: numel(first),
                    rhs: numel(p),
                })
                .collect());
        }
    }
    let Some(c) = NOT_EQUAL_VALUES.captures(clause) else {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!("no element count stated in “{clause}”"),
        ));
    };
    let values = text::int_alternatives(&c[1]);
    Ok(tensors
        .iter()
        .map(|p| Rule::NumelIn {
            param: p.name.clone(),
            values: values.clone(),
        })
        .collect())
}

/// Two of `tensors` whose shapes the parameter table relates otherwise than by equality.
pub(super) fn related_otherwise(op: &OpIr, tensors: &[&Param]) -> Option<(String, String)> {
    tensors.iter().enumerate().find_map(|(i, a)| {
        tensors[i + 1..]
            .iter()
            .find(|b| infer::shapes_related_otherwise(op, a, b))
            .map(|b| (a.name.clone(), b.name.clone()))
    })
}
