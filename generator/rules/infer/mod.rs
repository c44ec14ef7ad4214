//! Rules that follow from a parameter's own description: its table columns (dtypes, formats,
//! rank), "与X一致" phrases, list lengths, enumerations and value ranges.
//!
//! The recognizer uses these to give meaning to conditions that point at the parameter
//! description ("维度不在支持范围内", "shape不满足约束"); `inferred_rules` uses them for docs
//! without an error table.

use super::recognize::patterns::HW_ONLY;
use super::text::{self, re};
use crate::ir::{OpIr, Param, ParamKind, ProductId, Role};
use crate::read::MODAL;
use aclnn_runtime::{DType, Format, Rule};
use std::collections::BTreeMap;

mod promotions;
mod reductions;
mod strings;

pub use promotions::promotion_rules;
pub use reductions::{empty_dims_noop_value, empty_means_every_dim, keeps_reduced_dims};
pub use strings::{string_value_list, string_values};

re!(
    LIST_LEN,
    &format!(
        r"长度(?:只能|{MODAL})?(?:为|是|等于|支持)\s*(\d+(?:\s*(?:或者|或|、|,|，|和)\s*\d+)*)"
    )
);
// "size为4", "size为2(K_H, K_W)": the length, said of a list attribute.
re!(
    SIZE_LEN,
    &format!(
        r"(?:^|[^A-Za-z])(?:size|Size)(?:只能|{MODAL})?(?:为|是|等于)\s*(\d+(?:\s*(?:或者|或|、|,|，|和)\s*\d+)*)"
    )
);
re!(PAREN, r"\([^()]*\)|（[^（）]*）");
re!(INT_RANGE, r"[\[［]\s*(-?\d+)\s*[,，]\s*(-?\d+)\s*[\]］]");
// "当前仅支持取值为1", "支持的值为：1、27、34", "当前取值仅支持32", "（仅支持传入0或1）": the values
// an integer attribute takes (a note in brackets ends where its bracket closes).
re!(
    SUPPORTED_VALUES,
    r"(?:(?:仅|只)?支持(?:的)?(?:取)?值(?:为|是)|取值(?:仅|只)(?:支持|为|能为)|(?:仅|只)(?:支持|能|可)?\s*(?:传入|输入|设置为|设为|配置为))\s*[:：]?\s*(-?\d+(?:\s*(?:、|,|，|或者|或|和)\s*-?\d+)*)\s*(?:$|\))"
);
// "取值范围为[1, B]": a number below, a symbol of the op's shapes above.
re!(
    LOWER_BOUNDED_RANGE,
    r"[\[［]\s*(-?\d+)\s*[,，]\s*[A-Za-z_][A-Za-z0-9_.()*+\-/\s]*[\]］]"
);
re!(
    WORDED_LOWER_BOUND,
    &format!(r"^(?:数值|取值|值)?\s*{MODAL}?\s*(大于等于|不小于|>=|≥|大于|>)\s*(-?\d+)")
);
// "该值必须是非负的", "取值为非负数": at least 0.
re!(
    WORDED_NON_NEGATIVE,
    &format!(r"^(?:该值|数值|取值|值)?\s*{MODAL}?\s*(?:是|为)?\s*(?:非负|不能?为?负|不小于0)")
);
re!(DTYPE_WORD, r"数据类型|dtype");
re!(BROADCAST_WORD, r"(?i)广播|broadcast");
// "shape与totalSum的第一维一致", "shape需要与`x1`最后一维一致", "大小与x的尾轴相同".
re!(
    DIM_OF_OTHER,
    &format!(
        r"^(?:shape|大小|size|长度)?\s*{MODAL}?\s*(?:与|和|跟|等于)\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*的?\s*(第\s*[一二三四五六七八1-8]|最后一|尾)\s*(?:个)?(?:维度?|轴)(?:的?大小|的?size|的?长度)?\s*(?:保持)?(?:一致|相同|相等)?$"
    )
);
// "第一维必须大于0".
re!(
    DIM_POSITIVE,
    &format!(
        r"^(?:shape的?)?(第\s*[一二三四五六七八1-8]|最后一|尾)\s*(?:个)?(?:维度?|轴)(?:的?大小|的?size)?\s*{MODAL}?\s*(?:大于\s*0|>\s*0|为正数|是正数)$"
    )
);
// "weight.size(1)需要与input.size(1)一致": one dim of a tensor against one of another.
re!(
    SIZE_OF_EQUALS,
    &format!(
        r"^`?([A-Za-z_][A-Za-z0-9_]*)`?\.size\(\s*(-?\d)\s*\)\s*{MODAL}?\s*(?:与|和|等于)\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\.size\(\s*(-?\d)\s*\)\s*(?:保持)?(?:一致|相同|相等)?$"
    )
);
// "shape为[input.size(0), weight.size(0)]": the whole shape, dim by dim.
re!(
    SHAPE_OF_SIZES,
    r"^shape\s*(?:为|是|等于)\s*[\[（(]([^\[\]（）()]*(?:\([^()]*\)[^\[\]（）()]*)*)[\]）)]$"
);
re!(
    SIZE_OF,
    r"`?([A-Za-z_][A-Za-z0-9_]*)`?\.size\(\s*(-?\d)\s*\)"
);
// "weight.size(0)需要大于0", "input.size(1)需要小于等于65534": one dim's bound.
re!(
    SIZE_OF_BOUND,
    &format!(
        r"^`?([A-Za-z_][A-Za-z0-9_]*)`?\.size\(\s*(-?\d)\s*\)\s*{MODAL}?\s*(大于等于|小于等于|大于|小于|>=|<=|>|<)\s*(\d+)$"
    )
);
re!(
    NO_BROADCAST,
    r"(?i)(?:不|无需|无法)(?:支持|涉及|能|可以|需要?|做)?\s*(?:广播|broadcast)"
);
// "与gradOutput和self进行broadcast后的shape一致", "是self与other broadcast之后的shape",
// "与self和gradOutput的broadcast结果一致", "和输入input和values经过broadcast后的shape一致".
re!(
    BROADCAST_RESULT,
    r"(?i)(?:广播|broadcast)\s*(?:后|之后|以后)?\s*的?\s*(?:shape|结果|tensor)"
);
re!(
    ONE_WAY_BROADCAST,
    r"(?i)单向\s*(?:广播|broadcast)|(?:广播|broadcast)\s*到"
);
re!(
    BROADCAST_RELATION,
    r"(?i)满足\s*(?:广播|broadcast)\s*(?:关系|规则|条件)?"
);
re!(FORMAT_WORD, r"数据格式|格式|format");
re!(SHAPE_WORD, r"shape|形状");
re!(RANK_WORD, r"维数|维度数|维度|rank");
re!(SAME_WORD, r"一致|相同|保持|相等");
// "A@B计算后的结果", "进行数据类型推导后的结果": a value computed from others, not theirs.
re!(COMPUTED, r"@|计算后|运算后|推导|拆分|[Ii]nfer");
// The number of dims, whatever else the clause names ("shape的维度数量与x相同").
re!(RANK_COUNT, r"(?i)维数|维度数|\brank\b");
// "dstType的取值范围是:[35, 36, 40, 41]" (three numbers or more in brackets), "输入范围为{35, 36}"
// (braces hold a set, whatever its size).
re!(
    VALUE_SET,
    r"(?:取值(?:范围)?|范围)\s*(?:是|为)?\s*[:：]?\s*(?:[\[［]\s*(-?\d+(?:\s*[,，]\s*-?\d+){2,})\s*[\]］]|\{\s*(-?\d+(?:\s*[,，]\s*-?\d+)*)\s*\})"
);
// "与输入input一致或为FLOAT类型": equality is one of two choices, no rule.
re!(OR_ELSE, r"(?:一致|相同|相等)\s*或");
// "shape需要与x1最后一维一致", "与x除了最后一维的乘积一致": a relation to part of a shape.
re!(
    PART_OF_SHAPE,
    r"(?i:batch)|批(?:大小|维度)|[A-Za-z]\s*维|中的|最后一维|最后\s*\d+\s*维|[前后](?:几|\s*[nN]\s*(?:-\s*\d+)?|\s*\d+)\s*(?:个)?维|\[\s*-?\d*\s*:\s*-?\d*\s*\]|剔除|去掉|第\s*[一二三四五六七八\d]+\s*(?:个)?维|除了?|某一?个?维|维度?上|对应的?维度?|[少多]\s*[一二\d]\s*维|[其剩][他余]\s*(?:的)?维|轴|乘积|一半|1/2|倍"
);
// "元素个数为mask和self广播后的shapesize": the number of elements, not the shape.
re!(
    ELEMENT_COUNT,
    r"(?i)元素(?:个数|数量|总数|数)|shape\s*size|numel"
);
// "如果y1Out为有效输出时，shape…一致；否则shape为[1]": a relation that holds only sometimes.
re!(CONDITIONAL, r"如果|若|否则|当.*时|时[，,]");
// "其他数据类型时shape和x保持一致": a clause whose "时" closes a condition (not "同时", "实时", 时间).
re!(CONDITION_IN_CLAUSE, r"(?:^|[^同实临即])时(?:[^间]|$)");
re!(
    AXIS_RANGE_TEXT,
    r"[\[［]\s*-\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\.dim\(\)|\.rank\(?\)?|的维度|的维数)"
);
// "[-xDim, xDim - 1]（其中xDim指输入x的维度）": a symbol for a tensor's rank, defined beside.
re!(
    AXIS_RANGE_SYMBOL,
    r"[\[［]\s*-\s*([A-Za-z_][A-Za-z0-9_]*)\s*[,，]\s*([A-Za-z_][A-Za-z0-9_]*)\s*-\s*1\s*[\]］]"
);
re!(
    RANK_SYMBOL_DEFINED,
    r"其中\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*(?:指|为|是|表示|代表)\s*(?:输入|参数)?\s*`?([A-Za-z_][A-Za-z0-9_]*)`?\s*的\s*(?:维度|维数|秩|rank)"
);
// "指定`scale`和`offset`对应`x`的维度", "指定了self将要填充的维度": the attribute is a dim of x.
re!(
    AXIS_OF_TENSOR_TEXT,
    r"(?:对应|指定了?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:将要[\p{Han}]{1,4})?的(?:维度|轴)(?:[。，,；;]|$)"
);

/// Sentences of a parameter's description and constraints, split outside brackets.
pub fn sentences(p: &Param) -> Vec<String> {
    let mut out = Vec::new();
    for chunk in p.constraints.iter().chain(std::iter::once(&p.description)) {
        out.extend(text::split_clauses(&text::normalize(chunk), |_| true));
    }
    out
}

/// The clauses of `p`'s description and constraints outside sentences that state a condition
/// ("如果y1Out为有效输出时，shape…一致；否则shape为[1]").
pub(super) fn unconditional_clauses(p: &Param) -> Vec<String> {
    let mut out = Vec::new();
    for chunk in p.constraints.iter().chain(std::iter::once(&p.description)) {
        let chunk = text::normalize(chunk);
        for sentence in chunk.split(['。', '；', ';']) {
            if !CONDITIONAL.is_match(sentence) {
                out.extend(
                    text::split_clauses(sentence, |_| true)
                        .into_iter()
                        .filter(|c| !CONDITION_IN_CLAUSE.is_match(c)),
                );
            }
        }
    }
    out
}

/// Whether the table states `p`'s shape only under a condition ("若reduction取值为'none'，则shape
///需要与self和target进行broadcast后的shape一致"): an error row that states it plainly is then
/// the doc's shorthand, not a check on every call.
pub fn shape_stated_conditionally(p: &Param) -> bool {
    p.constraints
        .iter()
        .chain(std::iter::once(&p.description))
        .flat_map(|chunk| {
            text::normalize(chunk)
                .split(['。', '；', ';'])
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .any(|sentence| CONDITIONAL.is_match(&sentence) && SHAPE_WORD.is_match(&sentence))
}

/// The list lengths a list attribute allows ("长度为1（kH=kW）或2（kH, kW）" → [1, 2], "size为4").
pub fn list_lens(p: &Param) -> Option<Vec<usize>> {
    let all = p.constraints.join("。") + "。" + &p.description;
    let plain = PAREN.replace_all(&all, "");
    // "支持的最大长度为256个" bounds the length; it does not fix it.
    let sized = SIZE_LEN
        .captures_iter(&plain)
        .filter(|_| p.kind().is_array());
    let caps = LIST_LEN.captures_iter(&plain).chain(sized).find(|c| {
        let whole = c.get(0).map_or(0..0, |m| m.range());
        let before = &plain[..whole.start];
        // "长度为0时，…" is a condition, not the length.
        !["最大", "最多", "最小", "最少"]
            .iter()
            .any(|w| before.ends_with(w))
            && !plain[whole.end..].trim_start().starts_with('时')
    })?;
    let mut lens: Vec<usize> = text::int_alternatives(&caps[1])
        .into_iter()
        .filter_map(|v| usize::try_from(v).ok())
        .collect();
    lens.sort();
    lens.dedup();
    (!lens.is_empty()).then_some(lens)
}

/// Value ranges stated for an integer attribute, each with the products it applies to
/// (empty = every product): "Atlas 推理系列产品：支持范围为[-255,255]".
pub fn int_ranges(p: &Param) -> Vec<(Vec<String>, i64, i64)> {
    let mut out = Vec::new();
    for chunk in p.constraints.iter().chain(std::iter::once(&p.description)) {
        let chunk = text::normalize(chunk);
        for caps in INT_RANGE.captures_iter(&chunk) {
            let (Ok(lo), Ok(hi)) = (caps[1].parse::<i64>(), caps[2].parse::<i64>()) else {
                continue;
            };
            let whole = caps.get(0).map_or(0, |m| m.start());
            let before = &chunk[..whole];
            // The product qualifier is the text before the last "：" ahead of the range.
            let qualifier = before.rsplit_once(['：', ':']).map_or("", |(q, _)| q);
            out.push((text::products_in(qualifier), lo.min(hi), lo.max(hi)));
        }
    }
    out
}

re!(ELEMENT_WORD, r"元素|数值");
re!(ELEMENT_COUNT_WORD, r"个数|数量|长度|size");
re!(
    ELEMENTS_AT_LEAST_ZERO,
    r"大于等于\s*0|不小于\s*0|>=\s*0|≥\s*0|非负"
);
re!(ELEMENTS_POSITIVE, r"大于\s*(?:0|零)|正整数|为正|>\s*0");
re!(
    ELEMENTS_AT_MOST_FRACTION,
    r"小于等于\s*([A-Za-z_][A-Za-z0-9_]*)\s*/\s*(\d+)"
);

/// What an integer list's table says of its elements, unconditionally: "数组元素必须都大于0" →
/// each ≥ 1; "数组元素必须都大于等于0且小于等于kernelSize/2" → each ≥ 0 and ≤ kernelSize's
/// element at the same place, halved.
pub fn list_element_rules(op: &OpIr, p: &Param) -> Vec<Rule> {
    if !is_int_list(p) {
        return Vec::new();
    }
    let mut min = None;
    let mut out = Vec::new();
    for clause in unconditional_clauses(p) {
        if !ELEMENT_WORD.is_match(&clause) || ELEMENT_COUNT_WORD.is_match(&clause) {
            continue;
        }
        if ELEMENTS_AT_LEAST_ZERO.is_match(&clause) {
            min = min.max(Some(0));
        } else if ELEMENTS_POSITIVE.is_match(&clause) {
            min = min.max(Some(1));
        }
        for c in ELEMENTS_AT_MOST_FRACTION.captures_iter(&clause) {
            let Some(rhs) = text::resolve(op, &c[1]).filter(|q| is_int_list(q)) else {
                continue;
            };
            let Ok(num) = c[2].parse::<i64>() else {
                continue;
            };
            if num > 0 {
                out.push(Rule::ListElemsAtMostFraction {
                    lhs: p.name.clone(),
                    rhs: rhs.name.clone(),
                    num,
                    den: 1,
                });
            }
        }
    }
    if min.is_some() {
        out.insert(
            0,
            Rule::ListElemsInRange {
                param: p.name.clone(),
                min,
                max: None,
            },
        );
    }
    out
}

/// Lower bounds of ranges whose upper bound is a symbol ("取值范围为[1, B]"): only the number is
/// checkable.
pub fn lower_bounds(p: &Param) -> Vec<i64> {
    // Outside sentences that hold only sometimes ("当…为pergroup时传入值的范围为[32, k-1]").
    unconditional_clauses(p)
        .iter()
        .flat_map(|clause| {
            let bracketed = LOWER_BOUNDED_RANGE
                .captures_iter(clause)
                .filter_map(|c| c[1].parse().ok());
            bracketed
                .chain(worded_lower_bound(clause))
                .collect::<Vec<i64>>()
        })
        .collect()
}

/// "数值必须大于等于0且小于C" → 0, "取值大于0" → 1, "该值必须是非负的" → 0: a bound in words on the value itself (the
/// value is the subject: nothing but 数值/取值/值 and a modal stands before the comparison).
fn worded_lower_bound(clause: &str) -> Option<i64> {
    if WORDED_NON_NEGATIVE.is_match(clause) {
        return Some(0);
    }
    let c = WORDED_LOWER_BOUND.captures(clause)?;
    let n: i64 = c[2].parse().ok()?;
    Some(if matches!(&c[1], "大于" | ">") {
        n + 1
    } else {
        n
    })
}

/// The rank range of a tensor: its table column, else the ranks its formats imply
/// (NCHW → 4, NCL → 3; ND implies nothing).
///
/// None for a tensor only in private formats (FRACTAL_NZ, NC1HWC0): the table's rank there is
/// the storage layout's ("(batch, n1, k1, k0, n0)"), while a call's shape is the view's.
pub fn rank_of(p: &Param) -> Option<(usize, usize)> {
    if !p.formats.is_empty() && p.formats.iter().all(|f| f.is_private()) {
        return None;
    }
    if let Some(r) = p.rank {
        return Some((r.min, r.max));
    }
    let ranks: Option<Vec<usize>> = p.formats.iter().map(|f| format_rank(*f)).collect();
    let ranks = ranks?;
    Some((*ranks.iter().min()?, *ranks.iter().max()?))
}

fn format_rank(f: Format) -> Option<usize> {
    Some(match f {
        Format::Nc => 2,
        Format::Ncl | Format::Nlc => 3,
        Format::Nchw | Format::Nhwc | Format::Hwcn => 4,
        Format::Ncdhw | Format::Ndhwc => 5,
        _ => return None,
    })
}

/// Where the named dim sits in every shape the table states for `p`: one index from the start
/// in all of them, else one from the end ("(B, 1, H)或(B, H)": B at 0, H at -1); `None` when it
/// moves, repeats, or is missing from one.
fn dim_position(p: &Param, name: &str) -> Option<i64> {
    let spots: Vec<(i64, i64)> = p
        .shapes
        .iter()
        .map(|shape| {
            let mut hits = shape.iter().enumerate().filter(|(_, d)| *d == name);
            let (i, _) = hits.next()?;
            hits.next()
                .is_none()
                .then_some((i as i64, shape.len() as i64))
        })
        .collect::<Option<_>>()?;
    let (i0, len0) = *spots.first()?;
    if spots.iter().all(|(i, _)| *i == i0) {
        return Some(i0);
    }
    spots
        .iter()
        .all(|(i, len)| i - len == i0 - len0)
        .then_some(i0 - len0)
}

/// The tables' shapes dim by dim ("(batch_size, seq_len, hidden_dim)", "(batch_size, 1,
/// hidden_dim)或(batch_size, hidden_dim)"): a dim name is one size across the tensors (each
/// tied to the first that has it), and a number is that size.
pub fn named_dim_rules(tensors: &[&Param]) -> Vec<Rule> {
    let mut rules = Vec::new();
    let mut first: BTreeMap<&str, (&str, i64)> = BTreeMap::new();
    for p in tensors {
        let names: std::collections::BTreeSet<&str> =
            p.shapes.iter().flatten().map(String::as_str).collect();
        for name in names {
            let Some(pos) = dim_position(p, name) else {
                continue;
            };
            if let Ok(size) = name.parse::<i64>() {
                rules.push(Rule::DimInRange {
                    param: p.name.clone(),
                    dim: pos,
                    min: Some(size),
                    max: Some(size),
                });
            } else if let Some((q, q_pos)) = first.get(name) {
                rules.push(Rule::DimsEqual {
                    lhs: p.name.clone(),
                    lhs_dim: pos,
                    rhs: q.to_string(),
                    rhs_dim: *q_pos,
                });
            } else {
                first.insert(name, (p.name.as_str(), pos));
            }
        }
    }
    rules
}

/// What a 1-D tensor's description says of its one dim and what any tensor's says of a dim's
/// sign: "shape与totalSum的第一维一致" (its dim is totalSum's dim 0), "shape需要与x最后一维
/// 一致", "第一维必须大于0", and the dims it writes `x.size(i)` (`size_of_rules`). Only a tensor
/// the table gives one dim has "its dim"; `tensors` are the ones such a relation may name.
pub fn stated_dim_rules(op: &OpIr, p: &Param, tensors: &[&Param]) -> Vec<Rule> {
    let one_dim = p.rank.is_some_and(|r| r.min == 1 && r.max == 1);
    let mut rules = Vec::new();
    for clause in unconditional_clauses(p) {
        let sized = size_of_rules(op, p, &clause);
        if !sized.is_empty() {
            rules.extend(sized);
            continue;
        }
        if let Some(c) = DIM_POSITIVE.captures(&clause) {
            if let Some(dim) = dim_index(&c[1]) {
                rules.push(Rule::DimInRange {
                    param: p.name.clone(),
                    dim,
                    min: Some(1),
                    max: None,
                });
            }
            continue;
        }
        let Some(c) = one_dim.then(|| DIM_OF_OTHER.captures(&clause)).flatten() else {
            continue;
        };
        let other = text::resolve(op, &c[1])
            .filter(|q| q.name != p.name && tensors.iter().any(|t| t.name == q.name));
        if let (Some(other), Some(dim)) = (other, dim_index(&c[2])) {
            rules.push(Rule::DimsEqual {
                lhs: p.name.clone(),
                lhs_dim: 0,
                rhs: other.name.clone(),
                rhs_dim: dim,
            });
        }
    }
    rules
}

/// Dims written `x.size(i)` in `p`'s own description: one equal to a dim of another tensor
/// ("weight.size(1)需要与input.size(1)一致"), one bounded ("weight.size(0)需要大于0"), or the whole
/// shape as a list of them ("shape为[input.size(0), weight.size(0)]"). A statement whose first
/// tensor is not `p` belongs to that one's row; a list with anything else (an expression) is none.
fn size_of_rules(op: &OpIr, p: &Param, clause: &str) -> Vec<Rule> {
    let is_p = |word: &str| text::resolve(op, word).is_some_and(|q| q.name == p.name);
    // The statement is `p`'s own: the other tensor it names need not be one the row names.
    let other =
        |word: &str| text::resolve(op, word).filter(|q| q.name != p.name && q.role.is_tensor());
    if let Some(c) = SIZE_OF_EQUALS.captures(clause) {
        let (Some(other), Ok(lhs_dim), Ok(rhs_dim)) = (other(&c[3]), c[2].parse(), c[4].parse())
        else {
            return Vec::new();
        };
        if !is_p(&c[1]) {
            return Vec::new();
        }
        return vec![Rule::DimsEqual {
            lhs: p.name.clone(),
            lhs_dim,
            rhs: other.name.clone(),
            rhs_dim,
        }];
    }
    if let Some(c) = SIZE_OF_BOUND.captures(clause) {
        let (Ok(dim), Ok(n)) = (c[2].parse(), c[4].parse::<i64>()) else {
            return Vec::new();
        };
        if !is_p(&c[1]) {
            return Vec::new();
        }
        let (min, max) = match &c[3] {
            "大于" | ">" => (Some(n + 1), None),
            "大于等于" | ">=" => (Some(n), None),
            "小于" | "<" => (None, Some(n - 1)),
            _ => (None, Some(n)),
        };
        return vec![Rule::DimInRange {
            param: p.name.clone(),
            dim,
            min,
            max,
        }];
    }
    let Some(c) = SHAPE_OF_SIZES.captures(clause) else {
        return Vec::new();
    };
    let items: Vec<&str> = c[1].split([',', '，']).map(str::trim).collect();
    let mut rules = vec![Rule::RankIn {
        param: p.name.clone(),
        min: items.len(),
        max: items.len(),
    }];
    for (dim, item) in items.iter().enumerate() {
        let dim = dim as i64;
        if let Ok(size) = item.parse::<i64>() {
            rules.push(Rule::DimInRange {
                param: p.name.clone(),
                dim,
                min: Some(size),
                max: Some(size),
            });
            continue;
        }
        let Some(s) = SIZE_OF.captures(item).filter(|s| s[0].len() == item.len()) else {
            return Vec::new();
        };
        let (Some(other), Ok(rhs_dim)) = (other(&s[1]), s[2].parse()) else {
            return Vec::new();
        };
        rules.push(Rule::DimsEqual {
            lhs: p.name.clone(),
            lhs_dim: dim,
            rhs: other.name.clone(),
            rhs_dim,
        });
    }
    rules
}

/// "第一" → 0, "第3" → 2, "最后一"/"尾" → -1.
fn dim_index(ordinal: &str) -> Option<i64> {
    let ordinal = ordinal.trim_start_matches('第').trim();
    if ordinal.starts_with("最后") || ordinal.starts_with('尾') {
        return Some(-1);
    }
    let n = match ordinal.chars().next()? {
        c @ '1'..='8' => c as i64 - '0' as i64,
        c => "一二三四五六七八".chars().position(|x| x == c)? as i64 + 1,
    };
    Some(n - 1)
}

/// Whether the parameter table says `a` and `b` have different shapes: their rank ranges do
/// not meet ("1-2" and "3"), or a description relates one to a part of the other ("shape与
/// `x1`后几维保持一致", "shape需要与logits.size(0)一致", "为x的一半"). An error row that calls
/// their shapes mismatched then means that relation, not equality.
pub fn shapes_related_otherwise(op: &OpIr, a: &Param, b: &Param) -> bool {
    if let (Some((lo_a, hi_a)), Some((lo_b, hi_b))) = (rank_of(a), rank_of(b)) {
        if hi_a < lo_b || hi_b < lo_a {
            return true;
        }
    }
    let partial = |p: &Param, other: &Param| {
        unconditional_clauses(p).iter().any(|s| {
            PART_OF_SHAPE.is_match(s)
                && (SHAPE_WORD.is_match(s) || s.contains("维"))
                && text::mentions(op, s)
                    .iter()
                    .any(|m| m.param.name == other.name)
        })
    };
    let (shapes_a, shapes_b) = (stated_shapes(a), stated_shapes(b));
    let disjoint = !shapes_a.is_empty()
        && !shapes_b.is_empty()
        && !shapes_a.iter().any(|s| shapes_b.contains(s));
    partial(a, b) || partial(b, a) || disjoint
}

// "shape为(numTokens, numQHeads*headSize)", "shape为(3, numTokens)或(4, numTokens)".
re!(
    SHAPE_STATEMENT,
    r"(?:shape|形状)(?:为|是)\s*((?:[(\[（][^()\[\]（）]*[)\]）]\s*(?:或者|或|、|;|；)?\s*)+)"
);
re!(RELATED_SHAPE, r"一致|相同|保持");
re!(SHAPE_TUPLE_TEXT, r"[(\[（]([^()\[\]（）]*)[)\]）]");

/// The shapes the table's 维度 cell and the description spell out by named dims, dims in order
/// ("(numTokens)", "(B, S1, N)"); empty when none is spelt out.
fn stated_shapes(p: &Param) -> Vec<Vec<String>> {
    let mut shapes = p.shapes.clone();
    if sentences(p)
        .iter()
        .any(|s| SHAPE_WORD.is_match(s) && RELATED_SHAPE.is_match(s))
    {
        // "数据类型为INT4时，shape与入参x一致": in some mode its shape is another's, unspelt.
        return shapes;
    }
    // Shapes stated for one mode ("rope模式shape为(numTokens)") count too: the question is
    // whether any shape the table allows for one tensor is one it allows for the other.
    for sentence in sentences(p) {
        for c in SHAPE_STATEMENT.captures_iter(&sentence) {
            for t in SHAPE_TUPLE_TEXT.captures_iter(&c[1]) {
                let dims: Vec<String> = t[1]
                    .split([',', '，'])
                    .map(|d| d.split_whitespace().collect())
                    .collect();
                if !shapes.contains(&dims) {
                    shapes.push(dims);
                }
            }
        }
    }
    shapes
}

/// Relations "与X一致" stated in `p`'s description: dtype, format, shape, rank equality and
/// one-way broadcast.
pub fn relation_rules(op: &OpIr, p: &Param) -> Vec<Rule> {
    let mut rules = Vec::new();
    for s in unconditional_clauses(p) {
        let others: Vec<&Param> = text::mentions(op, &s)
            .into_iter()
            .map(|m| m.param)
            .filter(|q| q.name != p.name && q.role.is_tensor())
            .collect();
        let Some(other) = others.first() else {
            continue;
        };
        if !p.role.is_tensor() {
            continue;
        }
        let pair = || vec![p.name.clone(), other.name.clone()];
        if ELEMENT_COUNT.is_match(&s) {
            // A count of elements is no shape relation, nor any other this reads.
            continue;
        }
        if BROADCAST_WORD.is_match(&s) {
            rules.extend(broadcast_relation(p, &s, &others));
            continue;
        }
        if !SAME_WORD.is_match(&s) || OR_ELSE.is_match(&s) {
            continue;
        }
        if DTYPE_WORD.is_match(&s) && !COMPUTED.is_match(&s) {
            rules.push(Rule::DtypeSame { params: pair() });
        }
        if FORMAT_WORD.is_match(&s) {
            rules.push(Rule::FormatSame { params: pair() });
        }
        if PART_OF_SHAPE.is_match(&s) || COMPUTED.is_match(&s) {
            // Part of a shape is not the shape, nor is a shape computed from it ("shape需要与A@B
            // 计算后的结果一致"): no vocabulary rule says which part, or how it is computed.
        } else if RANK_COUNT.is_match(&s) {
            // "shape需要与index和src的维度数量相同": the number of dims, not the shape.
            rules.push(Rule::RankSame { params: pair() });
        } else if SHAPE_WORD.is_match(&s) {
            rules.push(Rule::ShapeSame { params: pair() });
        } else if RANK_WORD.is_match(&s) {
            rules.push(Rule::RankSame { params: pair() });
        }
    }
    rules
}

/// The broadcast relation a clause of `p`'s description states with the tensors it names
/// (`others`): "单向广播self"/"能broadcast到self" one-way, "与self和target满足broadcast关系"
/// mutual, "与gradOutput和self进行broadcast后的shape一致" the broadcast result. A clause that
/// denies broadcasting ("不支持广播"), relates part of a shape ("前两维…满足broadcast关系"),
/// or broadcasts to no tensor ("能broadcast到[m, n]") states none.
fn broadcast_relation(p: &Param, clause: &str, others: &[&Param]) -> Option<Rule> {
    // A note in parentheses ("(仅支持HW维度,NC维度需要保持一致)") qualifies the relation; it
    // does not make it one on part of the shape.
    let outside_notes = PAREN.replace_all(clause, "");
    if NO_BROADCAST.is_match(clause) || PART_OF_SHAPE.is_match(&outside_notes) {
        return None;
    }
    let names = || others.iter().map(|q| q.name.clone()).collect::<Vec<_>>();
    if BROADCAST_RESULT.is_match(clause) {
        return (others.len() >= 2).then(|| Rule::BroadcastShape {
            params: names(),
            out: p.name.clone(),
        });
    }
    if let ([to], true) = (others, ONE_WAY_BROADCAST.is_match(clause)) {
        return Some(Rule::Broadcastable {
            from: p.name.clone(),
            to: to.name.clone(),
            dims: HW_ONLY.is_match(clause).then(|| vec![-2, -1]),
        });
    }
    BROADCAST_RELATION
        .is_match(clause)
        .then(|| Rule::BroadcastTogether {
            params: std::iter::once(p.name.clone()).chain(names()).collect(),
        })
}

/// Every rule a parameter's description implies, each with the text it comes from; the
/// aclnn convention makes null pointers 161001 and everything else 161002.
pub fn param_rules(op: &OpIr, p: &Param) -> Vec<(Rule, u32, String)> {
    let invalid = aclnn_runtime::status::PARAM_INVALID;
    let mut out = Vec::new();
    if text::is_pointer(p) && !p.optional {
        out.push((
            Rule::NotNull {
                params: vec![p.name.clone()],
            },
            aclnn_runtime::status::PARAM_NULLPTR,
            format!("{}是空指针（参数说明：必选参数）", p.name),
        ));
    }
    if p.role.is_tensor() {
        for rule in param_dtype_rules(op, p) {
            out.push((
                rule,
                invalid,
                format!("{}的数据类型不在支持的范围之内", p.name),
            ));
        }
        if !p.formats.is_empty() {
            out.push((
                Rule::FormatIn {
                    param: p.name.clone(),
                    allowed: p.formats.clone(),
                },
                invalid,
                format!("{}的数据格式不在支持的范围之内", p.name),
            ));
        }
        if let Some((min, max)) = rank_of(p) {
            out.push((
                Rule::RankIn {
                    param: p.name.clone(),
                    min,
                    max,
                },
                invalid,
                format!("{}的维度不在支持的范围之内", p.name),
            ));
        }
        let all = sentences(p).join("，");
        if all.contains("每一维均为正数") || all.contains("每一维都大于0") {
            out.push((
                Rule::DimsPositive {
                    param: p.name.clone(),
                    allow_zero: false,
                },
                invalid,
                format!("{}的shape的某一维不大于0", p.name),
            ));
        }
        if p.empty_tensor == Some(false) || all.contains("不支持空") {
            out.push((
                Rule::NotEmpty {
                    param: p.name.clone(),
                },
                invalid,
                format!("{}是空tensor", p.name),
            ));
        }
        for rule in relation_rules(op, p) {
            out.push((rule, invalid, format!("{}不满足参数说明中的约束", p.name)));
        }
    } else {
        out.extend(
            attribute_rules(p)
                .into_iter()
                .map(|r| (r, invalid, format!("{}不在支持的范围之内", p.name))),
        );
    }
    out
}

/// "取值范围为[-x.dim(), x.dim()-1]": the attribute is a dim index of tensor `x`.
pub fn axis_rule(op: &OpIr, p: &Param) -> Option<Rule> {
    let all = text::normalize(&(p.constraints.join("。") + "。" + &p.description));
    let named = AXIS_RANGE_TEXT
        .captures(&all)
        .or_else(|| {
            // A dim named in words holds one index: an int, not a list of them.
            (!p.kind().is_array())
                .then(|| AXIS_OF_TENSOR_TEXT.captures(&all))
                .flatten()
        })
        .map(|c| c[1].to_string())
        .or_else(|| tensor_of_rank_symbol(&all))?;
    let tensor = text::resolve(op, &named).filter(|t| t.role.is_tensor())?;
    Some(Rule::AxisIn {
        param: p.name.clone(),
        tensor: tensor.name.clone(),
    })
}

/// "[-xDim, xDim - 1]（其中xDim指输入x的维度）" → "x": the tensor whose rank the range's symbol is.
fn tensor_of_rank_symbol(text: &str) -> Option<String> {
    let range = AXIS_RANGE_SYMBOL.captures(text)?;
    if range[1] != range[2] {
        return None;
    }
    RANK_SYMBOL_DEFINED
        .captures_iter(text)
        .find(|d| d[1] == range[1])
        .map(|d| d[2].to_string())
}

/// Length, enumeration and range rules of an attribute (for a string attribute, the values its
/// description lists exactly: [`string_values`]).
pub fn attribute_rules(p: &Param) -> Vec<Rule> {
    if p.kind() == ParamKind::Str {
        return string_values(p)
            .map(|values| Rule::StrIn {
                param: p.name.clone(),
                values,
            })
            .into_iter()
            .collect();
    }
    let mut out = Vec::new();
    if let Some(lens) = list_lens(p) {
        out.push(Rule::ListLenIn {
            param: p.name.clone(),
            lens,
        });
    }
    out.extend(value_rules(p));
    out
}

/// The value rules of an integer attribute: its enumeration, else its stated ranges.
pub fn value_rules(p: &Param) -> Vec<Rule> {
    // An aclDataType holds a dtype, not an integer: no integer rule checks it.
    if p.kind() == ParamKind::DataType {
        return Vec::new();
    }
    if !p.enum_values.is_empty() {
        return vec![Rule::IntIn {
            param: p.name.clone(),
            values: p.enum_values.keys().copied().collect(),
        }];
    }
    if p.kind().is_array() {
        return Vec::new();
    }
    let mut ranges: Vec<(Vec<String>, i64, Option<i64>)> = int_ranges(p)
        .into_iter()
        .map(|(products, lo, hi)| (products, lo, Some(hi)))
        .collect();
    if ranges.is_empty() {
        let listed: Vec<i64> = unconditional_clauses(p)
            .iter()
            .filter_map(|c| VALUE_SET.captures(c))
            .flat_map(|c| {
                let list = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
                text::int_alternatives(list)
            })
            .collect();
        if !listed.is_empty() {
            return vec![Rule::IntIn {
                param: p.name.clone(),
                values: listed,
            }];
        }
        let values: Vec<i64> = unconditional_clauses(p)
            .iter()
            .filter_map(|c| SUPPORTED_VALUES.captures(c))
            .flat_map(|c| text::int_alternatives(&c[1]))
            .collect();
        if !values.is_empty() {
            return vec![Rule::IntIn {
                param: p.name.clone(),
                values,
            }];
        }
        ranges = lower_bounds(p)
            .into_iter()
            .map(|lo| (Vec::new(), lo, None))
            .collect();
    }
    ranges
        .into_iter()
        .map(|(products, lo, hi)| {
            let rule = Rule::IntInRange {
                param: p.name.clone(),
                min: Some(lo),
                max: hi,
            };
            if products.is_empty() {
                rule
            } else {
                Rule::OnProducts {
                    products,
                    rule: Box::new(rule),
                }
            }
        })
        .collect()
}

/// A tensor's dtype rules: its per-product lists, then its conditional ones.
pub fn param_dtype_rules(op: &OpIr, p: &Param) -> Vec<Rule> {
    dtype_list_rule(op, p)
        .into_iter()
        .chain(dtype_given_rules(op, p))
        .collect()
}

/// A product the op's support list does not mark unsupported: a product note may name one the
/// list leaves out.
fn not_unsupported(op: &OpIr, product: &str) -> bool {
    op.products.get(product) != Some(&false)
}

/// `DtypeIn` from the per-product dtype lists, restricted to products the op supports.
fn dtype_list_rule(op: &OpIr, p: &Param) -> Option<Rule> {
    let allowed: BTreeMap<String, Vec<DType>> = p
        .dtypes
        .iter()
        .filter(|(prod, list)| !list.is_empty() && not_unsupported(op, prod))
        .map(|(prod, list)| (prod.to_string(), list.clone()))
        .collect();
    (!allowed.is_empty()).then(|| Rule::DtypeIn {
        param: p.name.clone(),
        allowed,
    })
}

/// One `WhenDtype` per conditional list ("当`x`的数据类型为FLOAT16时，数据类型支持FLOAT16、DOUBLE"). An
/// aclScalar has these alone: its table list is loose (aclnn casts scalars, and a doc's example
/// passes a FLOAT value where the list says INT32、INT64), a list stated against a tensor's dtype
/// is not.
pub fn dtype_given_rules(op: &OpIr, p: &Param) -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    for g in &p.dtypes_given {
        // A list for every product the op supports, unless the statement names its products.
        let products: Vec<&ProductId> = if g.products.is_empty() {
            op.products
                .iter()
                .filter(|(_, &on)| on)
                .map(|(k, _)| k)
                .collect()
        } else {
            g.products
                .iter()
                .filter(|prod| not_unsupported(op, prod))
                .collect()
        };
        let given: BTreeMap<String, Vec<DType>> = products
            .into_iter()
            .map(|prod| (prod.to_string(), g.allowed.clone()))
            .collect();
        if !given.is_empty() {
            rules.push(Rule::WhenDtype {
                param: g.on.clone(),
                dtypes: g.when.clone(),
                rule: Box::new(Rule::DtypeIn {
                    param: p.name.clone(),
                    allowed: given,
                }),
            });
        }
    }
    rules
}

/// Roles of list attributes whose elements the doc bounds ("某个维度值小于0").
pub fn is_int_list(p: &Param) -> bool {
    p.role == Role::Attribute && p.kind() == ParamKind::IntArray
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input tensor with a description.
    fn described(name: &str, desc: &str) -> Param {
        Param {
            name: name.into(),
            role: Role::InputTensor,
            ty: "const aclTensor*".into(),
            description: desc.into(),
            ..Default::default()
        }
    }

    fn attr(name: &str, ty: &str, constraint: &str) -> Param {
        crate::fixture::attr(name, ty, &[constraint])
    }

    #[test]
    fn list_lengths_ignore_parenthesized_notes() {
        let p = attr(
            "stride",
            "const aclIntArray*",
            "长度为0（$sH=kH,sW=kW$）或者1（$sH=sW$）或2（$sH, sW$）",
        );
        assert_eq!(list_lens(&p), Some(vec![0, 1, 2]));
        let p = attr(
            "kernelSize",
            "const aclIntArray*",
            "长度为1(kH=kW)或2(kH, kW)，数值大于0。",
        );
        assert_eq!(list_lens(&p), Some(vec![1, 2]));
        let p = attr(
            "stride",
            "const aclIntArray*",
            "数组长度必须为0，1或3，且数组元素必须都大于0。当数组的长度为0时，内部会取kernelSize的值。",
        );
        assert_eq!(list_lens(&p), Some(vec![0, 1, 3]));
        // "size为N" of a list is its length; "长度为0时" is a condition; an integer's size is none.
        let p = attr(
            "kernelSize",
            "const aclIntArray*",
            "size为2(K_H, K_W)，各元素均大于零。",
        );
        assert_eq!(list_lens(&p), Some(vec![2]));
        let p = attr(
            "padding",
            "const aclIntArray*",
            "padding的长度为0时不填充。",
        );
        assert_eq!(list_lens(&p), None);
        let p = attr("blocksize", "int64_t", "blocksize必须为32。");
        assert_eq!(list_lens(&p), None);
    }

    #[test]
    fn a_range_with_a_symbolic_upper_bound_keeps_its_lower_bound() {
        let p = attr(
            "batchSplitFactor",
            "int32_t",
            "取值范围为[1, B]且能被B整除。",
        );
        let conditional = attr(
            "groupSize",
            "int64_t",
            "当算法为pergroup时传入值的范围为[32, k-1]。",
        );
        assert_eq!(value_rules(&conditional), vec![]);
        assert_eq!(
            value_rules(&p),
            vec![Rule::IntInRange {
                param: "batchSplitFactor".into(),
                min: Some(1),
                max: None
            }]
        );
        // The same bound in words: "大于等于0且小于C" keeps 0, "大于0" is 1; a bound on
        // something else than the value ("长度大于0") or under a condition is none.
        let at_least = |text: &str| value_rules(&attr("blank", "int64_t", text));
        let min = |m| {
            vec![Rule::IntInRange {
                param: "blank".into(),
                min: Some(m),
                max: None,
            }]
        };
        assert_eq!(at_least("数值必须大于等于0且小于C。"), min(0));
        assert_eq!(at_least("取值大于0。"), min(1));
        assert_eq!(at_least("长度大于0。"), vec![]);
        assert_eq!(at_least("当mode为1时，取值大于0。"), vec![]);
        assert_eq!(at_least("该值必须是非负的。"), min(0));
        assert_eq!(at_least("长度非负。"), vec![]);
    }

    #[test]
    fn stated_values_of_a_string_attribute() {
        let p = attr("approximate", "char*", r#"仅支持{"none", "tanh"}"#);
        assert_eq!(
            attribute_rules(&p),
            vec![Rule::StrIn {
                param: "approximate".into(),
                values: vec!["none".into(), "tanh".into()]
            }]
        );
        // Its dtype, stated with the same verb, is no value: "数据类型支持STRING" (bullet-style docs
        // write the dtype column into the description).
        let mut p = attr("approximate", "char*", r#"仅支持{"none", "tanh"}"#);
        p.description = "数据类型支持STRING。".into();
        assert_eq!(
            string_values(&p),
            Ok(vec!["none".to_string(), "tanh".to_string()])
        );
        // Lists that do not nest in one: nothing is inferred.
        let mut p = attr("roundMode", "char*", "支持取值round、floor");
        p.constraints
            .push("Atlas 推理系列产品：支持取值rint".into());
        assert_eq!(attribute_rules(&p), vec![]);
    }

    #[test]
    fn stated_values_of_an_integer_attribute() {
        let p = attr(
            "dtype",
            "int32_t",
            "用于指定输出矩阵的数据类型，支持的值为：1、27、34。",
        );
        assert_eq!(
            value_rules(&p),
            vec![Rule::IntIn {
                param: "dtype".into(),
                values: vec![1, 27, 34]
            }]
        );
        let p = attr("factor", "int32_t", "Host侧的整型，当前仅支持取值为1。");
        assert_eq!(
            value_rules(&p),
            vec![Rule::IntIn {
                param: "factor".into(),
                values: vec![1]
            }]
        );
        let p = attr("groupSize", "int64_t", "当模式为MX时仅支持取值为32。");
        assert_eq!(value_rules(&p), vec![]);
        let p = attr("blocksize", "int64_t", "当前取值仅支持32。");
        assert_eq!(
            value_rules(&p),
            vec![Rule::IntIn {
                param: "blocksize".into(),
                values: vec![32]
            }]
        );
        // Braces hold a set, even of two.
        let p = attr(
            "dstType",
            "int64_t",
            "输入范围为{35, 36}，分别对应输出y的数据类型为{35: FLOAT8_E5M2, 36: FLOAT8_E4M3FN}。",
        );
        assert_eq!(
            value_rules(&p),
            vec![Rule::IntIn {
                param: "dstType".into(),
                values: vec![35, 36]
            }]
        );
        // Three numbers or more in brackets are a set, not a range.
        let p = attr(
            "dstType",
            "int64_t",
            "dstType的取值范围是:[35, 36, 40, 41]。",
        );
        assert_eq!(
            value_rules(&p),
            vec![Rule::IntIn {
                param: "dstType".into(),
                values: vec![35, 36, 40, 41]
            }]
        );
        // A symbol among them is no set.
        let p = attr(
            "axis",
            "int64_t",
            "取值范围为：[-1, -2, xDim - 2, xDim - 1]。",
        );
        assert!(!value_rules(&p)
            .iter()
            .any(|r| matches!(r, Rule::IntIn { .. })));
    }

    #[test]
    fn ranges_keep_their_products() {
        let p = attr(
            "divisorOverride",
            "int64_t",
            "Atlas 推理系列产品、Atlas 训练系列产品：支持范围为[-255,255]，0表示不影响padding是否参与平均计算。",
        );
        assert_eq!(
            int_ranges(&p),
            vec![(vec!["ascend310p".into(), "ascend910".into()], -255, 255)]
        );
    }

    #[test]
    fn named_dims_tie_tensors_together() {
        let t = |name: &str, shapes: &[&[&str]]| Param {
            name: name.into(),
            role: Role::InputTensor,
            shapes: shapes
                .iter()
                .map(|s| s.iter().map(|d| d.to_string()).collect())
                .collect(),
            ..Default::default()
        };
        let x = t("self", &[&["B", "S", "H"]]);
        // H sits last in both shapes, B first; the 1 only in one of them.
        let scale = t("scale", &[&["B", "1", "H"], &["B", "H"]]);
        // w has H in one of its shapes only: no rule ties it.
        let w = t("w", &[&["H", "W", "K"], &["W", "K"]]);
        let eq = |lhs: &str, lhs_dim, rhs: &str, rhs_dim| Rule::DimsEqual {
            lhs: lhs.into(),
            lhs_dim,
            rhs: rhs.into(),
            rhs_dim,
        };
        assert_eq!(
            named_dim_rules(&[&x, &scale, &w]),
            vec![eq("scale", 0, "self", 0), eq("scale", -1, "self", 2)]
        );
        // A size stated in every shape at one place is that size.
        let k = t("k", &[&["N", "1"]]);
        assert_eq!(
            named_dim_rules(&[&k]),
            vec![Rule::DimInRange {
                param: "k".into(),
                dim: 1,
                min: Some(1),
                max: Some(1)
            }]
        );
    }

    #[test]
    fn relations_from_description() {
        let mut op = OpIr::default();
        let t = described;
        op.params = vec![
            t("gradOutput", "数据类型与self一致，shape满足单向广播self的shape(仅支持HW维度,NC维度需要保持一致)。且数据格式需要与self一致。"),
            t("self", ""),
        ];
        let rules = relation_rules(&op, &op.params[0]);
        assert_eq!(
            rules,
            vec![
                Rule::DtypeSame {
                    params: vec!["gradOutput".into(), "self".into()]
                },
                Rule::Broadcastable {
                    from: "gradOutput".into(),
                    to: "self".into(),
                    dims: Some(vec![-2, -1])
                },
                Rule::FormatSame {
                    params: vec!["gradOutput".into(), "self".into()]
                },
            ]
        );
        // Equality as one of two choices is no rule.
        op.params[0].description = "数据类型与输入self一致或为FLOAT类型。".into();
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
        // The number of dims of a shape is its rank, not the shape.
        op.params[0].description = "shape需要与self的维度数量相同。".into();
        assert_eq!(
            relation_rules(&op, &op.params[0]),
            vec![Rule::RankSame {
                params: vec!["gradOutput".into(), "self".into()]
            }]
        );
        // The other dims are part of the shape.
        op.params[0].description = "其他维度的值和输入self的shape其他维度的值保持一致。".into();
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
        // A dtype derived from others is not theirs.
        op.params[0].description = "dtype与self和out进行数据类型推导后的结果一致。".into();
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
        // A clause that states a condition is not a relation ("其他数据类型时shape和self保持一致");
        // the clauses beside one are ("此参数在amsgrad为true时必选").
        op.params[0].description = "其他数据类型时shape和self保持一致。".into();
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
        op.params[0].description = "shape与self一致，此参数在amsgrad为true时必选。".into();
        assert_eq!(
            relation_rules(&op, &op.params[0]),
            vec![Rule::ShapeSame {
                params: vec!["gradOutput".into(), "self".into()]
            }]
        );
        // …unless it is the count of part of the shape.
        op.params[0].description =
            "其中B支持0到6个维度，维度数量和大小与self中的B保持一致。".into();
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
        // A batch is part of a shape (Logdet's out: CANN's InferShape gives [4] for [4, 3, 3]).
        op.params[0].description = "shape与self的batch一致。".into();
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
        // A count of elements is not a shape (MaskedSelect's out is one-dimensional).
        op.params[0].description = "元素个数为mask和self广播后的shapesize。".into();
        op.params.push(t("mask", ""));
        assert_eq!(relation_rules(&op, &op.params[0]), vec![]);
    }

    #[test]
    fn the_one_dim_of_a_1d_tensor_against_a_dim_of_another() {
        let t = |name: &str, rank: Option<(usize, usize)>, desc: &str| Param {
            name: name.into(),
            role: Role::InputTensor,
            ty: "const aclTensor*".into(),
            description: desc.into(),
            rank: rank.map(|(min, max)| crate::ir::Rank { min, max }),
            ..Default::default()
        };
        let op = OpIr {
            params: vec![
                t("gamma", Some((1, 1)), "shape需要与`x1`最后一维一致。"),
                // Several dims: "x1's last dim" is no statement of its shape.
                t("beta", Some((1, 8)), "shape需要与x1最后一维一致。"),
                t("x1", Some((2, 8)), "第一维必须大于0。"),
            ],
            ..OpIr::default()
        };
        let all: Vec<&Param> = op.params.iter().collect();
        assert_eq!(
            stated_dim_rules(&op, &op.params[0], &all),
            [Rule::DimsEqual {
                lhs: "gamma".into(),
                lhs_dim: 0,
                rhs: "x1".into(),
                rhs_dim: -1
            }]
        );
        assert_eq!(stated_dim_rules(&op, &op.params[1], &all), []);
        assert_eq!(
            stated_dim_rules(&op, &op.params[2], &all),
            [Rule::DimInRange {
                param: "x1".into(),
                dim: 0,
                min: Some(1),
                max: None
            }]
        );
        // A tensor the clause does not name among `tensors` is no relation.
        assert_eq!(stated_dim_rules(&op, &op.params[0], &all[..1]), []);
    }

    #[test]
    fn dims_written_as_size_calls() {
        let mut op = OpIr::default();
        let t = described;
        op.params = vec![
            t("input", "input.size(1)需要小于等于65534。"),
            t(
                "weight",
                "weight.size(0)需要大于0。weight.size(1)需要与input.size(1)一致。",
            ),
            t("logits", "shape为[input.size(0), weight.size(0)]。"),
            t("mask", "shape为[(input.size(0) + 7) / 8]。"),
            t("other", "input.size(0)需要与weight.size(0)一致。"),
        ];
        let all: Vec<&Param> = op.params.iter().collect();
        let dim_range = |param: &str, dim, min, max| Rule::DimInRange {
            param: param.into(),
            dim,
            min,
            max,
        };
        let dims_equal = |lhs: &str, lhs_dim, rhs: &str, rhs_dim| Rule::DimsEqual {
            lhs: lhs.into(),
            lhs_dim,
            rhs: rhs.into(),
            rhs_dim,
        };
        assert_eq!(
            stated_dim_rules(&op, &op.params[0], &all),
            [dim_range("input", 1, None, Some(65534))]
        );
        assert_eq!(
            stated_dim_rules(&op, &op.params[1], &all),
            [
                dim_range("weight", 0, Some(1), None),
                dims_equal("weight", 1, "input", 1)
            ]
        );
        assert_eq!(
            stated_dim_rules(&op, &op.params[2], &all[2..3]),
            [
                Rule::RankIn {
                    param: "logits".into(),
                    min: 2,
                    max: 2
                },
                dims_equal("logits", 0, "input", 0),
                dims_equal("logits", 1, "weight", 0)
            ]
        );
        // An expression is no dim; a statement about other tensors belongs to their rows.
        assert_eq!(stated_dim_rules(&op, &op.params[3], &all), []);
        assert_eq!(stated_dim_rules(&op, &op.params[4], &all), []);
        // Any modal verb states the same requirement.
        for modal in ["须", "应", "必须", "要"] {
            op.params[1] = t(
                "weight",
                &format!("weight.size(0){modal}大于0。weight.size(1){modal}与input.size(1)一致。"),
            );
            let all: Vec<&Param> = op.params.iter().collect();
            assert_eq!(
                stated_dim_rules(&op, &op.params[1], &all),
                [
                    dim_range("weight", 0, Some(1), None),
                    dims_equal("weight", 1, "input", 1)
                ],
                "{modal}"
            );
        }
    }

    #[test]
    fn broadcast_relations_mutual_one_way_and_as_a_result() {
        let mut op = OpIr::default();
        let t = described;
        op.params = vec![
            t("gradOutput", "shape需要与self和target满足broadcast关系。"),
            t(
                "gradInput",
                "shape与gradOutput和self进行broadcast后的shape一致。",
            ),
            t("weight", "shape能broadcast到self。"),
            t("bias", "shape需要与self完全一致，不支持广播。"),
            t(
                "beta",
                "shape支持前两维和self不同，但需要满足broadcast关系。",
            ),
            t("self", ""),
            t("target", ""),
        ];
        let read = |i: usize| relation_rules(&op, &op.params[i]);
        let names = |ns: &[&str]| ns.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(
            read(0),
            [Rule::BroadcastTogether {
                params: names(&["gradOutput", "self", "target"])
            }]
        );
        assert_eq!(
            read(1),
            [Rule::BroadcastShape {
                params: names(&["gradOutput", "self"]),
                out: "gradInput".into()
            }]
        );
        assert_eq!(
            read(2),
            [Rule::Broadcastable {
                from: "weight".into(),
                to: "self".into(),
                dims: None
            }]
        );
        assert_eq!(
            read(3),
            [Rule::ShapeSame {
                params: names(&["bias", "self"])
            }]
        );
        assert_eq!(read(4), []);
    }

    #[test]
    fn part_of_a_shape_or_a_conditional_relation_is_no_shape_equality() {
        let mut op = OpIr::default();
        let t = described;
        op.params = vec![
            t("gamma", "数据类型需要与`x1`保持一致。shape需要与`x1`最后一维一致。维度数量和大小与`x1`中的B保持一致。"),
            t("y1Out", "如果`y1Out`为有效输出时，shape和数据类型需要与输入`x1`保持一致；否则shape为[1]。"),
            t("x1", ""),
        ];
        let pair = vec!["gamma".to_string(), "x1".into()];
        assert_eq!(
            relation_rules(&op, &op.params[0]),
            vec![Rule::DtypeSame { params: pair }]
        );
        assert_eq!(relation_rules(&op, &op.params[1]), vec![]);
    }
}
