//! Relations between parameters: dtype promotion and casts, equal dims, equal list lengths.

use super::common::dtype_kin;
use super::common::names;
use super::patterns::*;
use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, ParamKind, Role};
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{DType, Rule};

// "无法推导为指定输出out的类型": derived into the output's dtype is a cast to it.
re!(CAST_TO, r"(?:转换为|转换成|转换到|转为|转成|推导为)");
re!(
    FIXED_DTYPE,
    r"^\s*(?:数据类型)?\s*([A-Z][A-Z0-9_]*\d*)\s*(?:类型)?$"
);
re!(
    CAST_FROM_ABLE,
    r"^(?:参数|输入|输出)?\s*([A-Za-z_][A-Za-z0-9_]*)的?(?:数据类型|dtype|类型)不是(.+)可转换的?"
);

/// "self和other无法做数据类型推导" → promotable; "推导出的数据类型无法转换为out的类型",
/// "self与out的数据类型不一致且无法转换", "out的数据类型不是self可转换的", "self的数据类型无法推导为
/// 指定输出out的类型" → castable.
pub(super) fn promotion_rules(
    op: &OpIr,
    clause: &str,
    subjects: &[&Param],
) -> Result<Vec<Rule>, Manual> {
    if let Some(rule) = super::shapes::shape_from_list_rule(op, clause, subjects) {
        return Ok(vec![rule]);
    }
    if SHAPE.is_match(clause) || SUPPORTED_RANGE.is_match(clause) || clause.contains("格式") {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            "shape inference and the promoted dtype's range are not in the vocabulary",
        ));
    }
    if let Some(read) = promoted_to_complex_rules(clause, subjects) {
        return read;
    }
    if let Some(rules) = scalar_cast_rules(op, clause) {
        return Ok(rules);
    }
    // An aclScalar takes part in a promotion by CANN's tensor–scalar rule (the runtime's
    // `pred::promote_with_scalar`); an integer or other attribute does not promote.
    if subjects
        .iter()
        .any(|p| !p.role.is_tensor() && p.kind() != ParamKind::Scalar)
    {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            "promotion involving an attribute that is no aclScalar is not in the vocabulary",
        ));
    }
    let casting = CAST_TO.is_match(clause)
        || clause.contains("无法转换")
        || clause.contains("可转换")
        || clause.contains("互转换");
    if !casting {
        if subjects.len() < 2 {
            return Err(Manual::new(
                ManualKind::UnknownName,
                "a promotion condition that names fewer than two tensors",
            ));
        }
        if !subjects.iter().any(|p| p.role.is_tensor()) {
            return Err(Manual::new(
                ManualKind::Vocabulary,
                "a promotion of scalars alone is not in the vocabulary",
            ));
        }
        return Ok(vec![Rule::DtypePromotable {
            params: names(subjects),
        }]);
    }
    let mentions = text::mentions(op, clause);
    let to: Option<&Param> = if CAST_FROM_ABLE.is_match(clause) {
        mentions.first().map(|m| m.param)
    } else if let Some(k) = CAST_TO.find(clause) {
        mentions.iter().find(|m| m.at >= k.end()).map(|m| m.param)
    } else if let Some((source, destination)) = stated_cast(op, subjects) {
        // "self与out的数据类型不满足互转换关系", where out's description says "out数据类型需要可
        // 转换为self的数据类型": the row points at the cast, the description gives its direction.
        return Ok(vec![Rule::DtypeCastable {
            from: vec![source],
            to: destination,
        }]);
    } else {
        // "self与out的数据类型不一致且无法转换": the last one named is the destination.
        mentions.last().map(|m| m.param)
    };
    let Some(to) = to.filter(|p| p.role.is_tensor()) else {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            "a cast to a fixed dtype or to a non-tensor is not in the vocabulary",
        ));
    };
    // Scalars a cast row names beside a tensor do not lift its dtype: the one such row in CANN's
    // docs, aclnnThreshold's "self与threshold、value推导后的数据类型无法转换为out", is checked as
    // self → out in ops-nn's aclnn_threshold.cpp (CheckDtypeValid; its l0 op converts both
    // scalars to self's dtype), and its unit test l2_test_self_int16 (INT16 self, FLOAT
    // threshold, INT16 out) succeeds. The binary tensor–scalar ops, whose scalar operand does
    // lift the promoted dtype (ops-math aclnn_add.cpp CheckParamsScalar), name no operand:
    // "推导出的数据类型无法转换为out的类型", read below.
    let named_tensor = subjects
        .iter()
        .any(|p| p.role.is_tensor() && p.name != to.name);
    let mut from: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.name != to.name && (p.role.is_tensor() || !named_tensor))
        .collect();
    if from.is_empty() {
        // "推导出的数据类型无法转换为selfRef的类型": every input takes part in the promotion,
        // an in-place destination included.
        // Quantization parameters (a UINT64 deqScale among INT8 data) share no dtype with the
        // data and take no part in its promotion.
        let inputs = text::input_tensors(op);
        from = dtype_kin(&inputs);
        from.extend(operand_scalars(op, inputs.len()));
    }
    if from.is_empty() {
        return Err(Manual::new(
            ManualKind::UnknownName,
            "a cast condition without a source tensor",
        ));
    }
    Ok(vec![Rule::DtypeCastable {
        from: names(&from),
        to: to.name.clone(),
    }])
}

// "out数据类型需要可转换为self的数据类型" in out's description.
re!(
    STATED_CAST,
    r"^(?:([A-Za-z_][A-Za-z0-9_]*)的?)?(?:数据类型|dtype)(?:需要|必须|应)?(?:是)?可转换(?:为|成)([A-Za-z_][A-Za-z0-9_]*)的(?:数据类型|dtype)"
);

/// The direction of a cast between two of `subjects` that one of them states in its description
/// ("out数据类型需要可转换为self的数据类型"): (source, destination).
fn stated_cast(op: &OpIr, subjects: &[&Param]) -> Option<(String, String)> {
    let named = |w: &str| {
        text::resolve(op, w)
            .filter(|p| p.role.is_tensor() && subjects.iter().any(|s| s.name == p.name))
            .map(|p| p.name.clone())
    };
    subjects
        .iter()
        .filter(|p| p.role.is_tensor())
        .find_map(|p| {
            p.constraints.iter().find_map(|c| {
                let c = STATED_CAST.captures(c.trim())?;
                let source = match c.get(1) {
                    Some(m) => named(m.as_str())?,
                    None => p.name.clone(),
                };
                let destination = named(&c[2])?;
                (source != destination).then_some((source, destination))
            })
        })
}

re!(
    PROMOTED_IS,
    r"推导(?:出来|出|后|之后)?的数据类型(?:为|是)\s*([A-Za-z0-9_、,，\s或和]+)$"
);

/// "self和other推导出来的数据类型为COMPLEX64或COMPLEX128": the promoted dtype is complex exactly
/// when an operand's is (the top of the promotion order), so each tensor operand's dtype is
/// out of that list: its documented dtypes but those. `None` where the clause states no promoted
/// dtype; a promoted dtype below the top (BOOL: every operand BOOL) stays manual.
fn promoted_to_complex_rules(
    clause: &str,
    subjects: &[&Param],
) -> Option<Result<Vec<Rule>, Manual>> {
    let c = PROMOTED_IS.captures(clause)?;
    let named = super::common::dtype_list(c[1].trim())?;
    let complex = |d: &DType| matches!(d, DType::Complex32 | DType::Complex64 | DType::Complex128);
    if !named.iter().all(complex) {
        return Some(Err(Manual::new(
            ManualKind::Vocabulary,
            format!(
                "a promoted dtype that is a stated one (“{}”) is not in the vocabulary",
                &c[0]
            ),
        )));
    }
    let tensors: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role.is_tensor() && !p.dtypes.is_empty())
        .collect();
    if tensors.is_empty() {
        return Some(Err(Manual::new(
            ManualKind::Unstated,
            "a promoted dtype named, but no operand tensor documents its dtypes",
        )));
    }
    Some(Ok(tensors
        .iter()
        .map(|p| Rule::DtypeIn {
            param: p.name.clone(),
            allowed: p
                .dtypes
                .iter()
                .map(|(product, ds)| {
                    let kept = ds.iter().copied().filter(|d| !named.contains(d)).collect();
                    (product.to_string(), kept)
                })
                .collect(),
        })
        .collect()))
}

/// The op's aclScalar inputs that are operands of its promotion ("推导出的数据类型无法转换为out的
/// 类型" of aclnnAdds: `other`). Only a tensor–scalar op (one input tensor: Adds, Muls,
/// PowTensorScalar) promotes a scalar operand with its tensor; where several tensors are the
/// operands a scalar scales them and is converted to their dtype (aclnnIndexAdd's alpha: ops-nn's
/// aclnn_index_add.cpp checks self, source and out alone). A scalar a condition casts to the
/// promoted dtype ("alpha无法转换为self和other推导后的数据类型") is checked apart, after it.
fn operand_scalars(op: &OpIr, input_tensors: usize) -> Vec<&Param> {
    if input_tensors != 1 {
        return Vec::new();
    }
    let cast_apart: Vec<String> = op
        .errors
        .iter()
        .flat_map(|e| e.condition.split(['，', '；', '。', ',', ';']))
        .filter_map(|clause| scalar_cast_rules(op, clause))
        .flatten()
        .flat_map(|r| match r {
            Rule::ScalarCastable { scalars, .. } => scalars,
            _ => Vec::new(),
        })
        .collect();
    op.params
        .iter()
        .filter(|p| p.kind() == ParamKind::Scalar && !cast_apart.contains(&p.name))
        .collect()
}

/// "batch1的最后一维和batch2的倒数第二维不相等", "batch1和batch2的第一维度不相等".
pub(super) fn dims_equal_rule(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let tensor = |w: &str| text::resolve(op, w).filter(|p| p.role.is_tensor());
    // `a`'s last dim against `b`'s second to last: the inner dims of a matrix product.
    let inner_dims = |a: &Param, b: &Param| {
        vec![Rule::DimsEqual {
            lhs: a.name.clone(),
            lhs_dim: -1,
            rhs: b.name.clone(),
            rhs_dim: -2,
        }]
    };
    if let Some(c) = NOT_SQUARE.captures(clause) {
        // "self最后两维的大小不一致", "self不是方阵": its matrices are square.
        let a = tensor(&c[1])?;
        return Some(inner_dims(a, a));
    }
    if let Some(c) = MATMUL.captures(clause) {
        // "mat1和mat2不满足相乘条件": the inner dims of a matrix product agree.
        return Some(inner_dims(tensor(&c[1])?, tensor(&c[2])?));
    }
    let ordinal = |s: &str| -> Option<i64> {
        let s = s.trim();
        if s.starts_with("最后") {
            return Some(-1);
        }
        let last = s.chars().last()?;
        let n = match last.to_digit(10) {
            Some(d) => i64::from(d),
            None => "一二三四五六七八".chars().position(|d| d == last)? as i64 + 1,
        };
        Some(if s.starts_with("倒数") { -n } else { n - 1 })
    };
    let tensor_named = |w: &str| {
        text::resolve(op, w.trim())
            .filter(|p| p.role.is_tensor())
            .map(|p| p.name.clone())
    };
    if let Some(c) = DIMS_EQUAL_GROUP.captures(clause) {
        let names: Option<Vec<String>> = c[1]
            .split(['、', '，', ',', '和', '与', '及'])
            .filter(|w| !w.trim().is_empty())
            .map(tensor_named)
            .collect();
        let names = names?;
        let dim = ordinal(&c[2])?;
        let (first, rest) = names.split_first()?;
        return Some(
            rest.iter()
                .map(|other| Rule::DimsEqual {
                    lhs: first.clone(),
                    lhs_dim: dim,
                    rhs: other.clone(),
                    rhs_dim: dim,
                })
                .collect(),
        );
    }
    let c = DIMS_EQUAL.captures(clause)?;
    // Either "A的第N维和B的第M维不相等" or "A的第N个维度值不等于B的第M个维度值".
    let negated = ["不相等", "不一致", "不相同"]
        .iter()
        .any(|w| clause.ends_with(w))
        || clause.contains("不等于");
    if !negated {
        return None;
    }
    let tensor = |i: usize| c.get(i).and_then(|m| tensor_named(m.as_str()));
    let lhs = tensor(1)?;
    let lhs_dim = ordinal(&c[3])?;
    let (rhs, rhs_dim) = match (tensor(2), tensor(4), c.get(5)) {
        (Some(b), None, None) => (b, lhs_dim),
        (None, Some(b), Some(d)) => (b, ordinal(d.as_str())?),
        _ => return None,
    };
    Some(vec![Rule::DimsEqual {
        lhs,
        lhs_dim,
        rhs,
        rhs_dim,
    }])
}

/// "alpha无法转换为self和other推导后的数据类型", "alpha的数据类型不可转换为FLOAT", "beta，threshold的数据类型
/// 无法转换成self的数据类型": scalar arguments (`aclScalar*`) named before the cast word cast to a
/// fixed dtype or to the promoted dtype of the tensors named after it (`ScalarCastable`).
pub(super) fn scalar_cast_rules(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let k = CAST_TO.find(clause)?;
    let mentions = text::mentions(op, clause);
    let before: Vec<&Param> = mentions
        .iter()
        .filter(|m| m.at < k.start())
        .map(|m| m.param)
        .collect();
    if before.is_empty() || !before.iter().all(|p| p.kind().is_scalar_like()) {
        return None;
    }
    let after = &clause[k.end()..];
    // The promoted dtype of tensors and aclScalar operands ("alpha无法转换为self和other推导后的
    // 数据类型" of aclnnAdds, whose other is a scalar: ops-math aclnn_add.cpp casts alpha to
    // PromoteTypeScalar(self, other)).
    let to: Vec<String> = mentions
        .iter()
        .filter(|m| m.at >= k.end())
        .map(|m| m.param)
        .filter(|p| p.role.is_tensor() || p.kind() == ParamKind::Scalar)
        .map(|p| p.name.clone())
        .collect();
    let dtype = FIXED_DTYPE
        .captures(after)
        .and_then(|c| aclnn_runtime::DType::parse(&c[1]));
    if to.is_empty() == dtype.is_none() {
        // Neither a dtype nor a tensor to cast to, or both: not one reading.
        return None;
    }
    Some(vec![Rule::ScalarCastable {
        scalars: names(&before),
        to,
        dtype,
    }])
}

/// "weight，runningMean的shape长度与input shape中channel轴的长度不相等": each named tensor's first dim
/// (or the dim the clause names) is the channel axis of the last-named one (`DimMatchesChannel`).
pub(super) fn channel_rules(op: &OpIr, text: &str) -> Option<Vec<Rule>> {
    let c = CHANNEL_MATCH.captures(text.trim())?;
    let tensor = |w: &str| {
        text::resolve(op, w.trim())
            .filter(|p| p.role.is_tensor())
            .map(|p| p.name.clone())
    };
    let of = tensor(&c[3])?;
    let dim = match c.get(2) {
        None => 0,
        Some(m) => {
            let s: String = m.as_str().chars().filter(|c| !c.is_whitespace()).collect();
            if s.starts_with("最后") {
                -1
            } else {
                let last = s.chars().last()?;
                match last.to_digit(10) {
                    Some(d) => i64::from(d) - 1,
                    None => "一二三四五六七八".chars().position(|d| d == last)? as i64,
                }
            }
        }
    };
    let names: Option<Vec<String>> = c[1]
        .split(['、', '，', ',', '和', '与', '或', '及'])
        .filter(|w| !w.trim().is_empty())
        .map(tensor)
        .collect();
    // "第2维固定为channel轴", "默认第二维为channel轴": the doc pins the axis whatever the format.
    let pinned = text::resolve(op, &of).and_then(pinned_channel);
    Some(
        names?
            .into_iter()
            .filter(|n| *n != of)
            .map(|param| match pinned {
                Some(axis) => Rule::DimsEqual {
                    lhs: param,
                    lhs_dim: dim,
                    rhs: of.clone(),
                    rhs_dim: axis,
                },
                None => Rule::DimMatchesChannel {
                    param,
                    dim,
                    tensor: of.clone(),
                    layout_attr: layout_attr(op),
                },
            })
            .collect(),
    )
}

/// The 0-based dim the table pins as the channel axis ("第2维固定为channel轴").
pub(super) fn pinned_channel(p: &Param) -> Option<i64> {
    std::iter::once(&p.description)
        .chain(&p.constraints)
        .find_map(|t| PINNED_CHANNEL.captures(t))
        .and_then(|c| ordinal_index(c.get(1).or(c.get(2))?.as_str()))
}

/// "2" / "二" → 1 (a 1-based ordinal as a 0-based dim).
fn ordinal_index(s: &str) -> Option<i64> {
    let last = s.trim().chars().last()?;
    match last.to_digit(10) {
        Some(d) if d >= 1 => Some(i64::from(d) - 1),
        Some(_) => None,
        None => "一二三四五六七八"
            .chars()
            .position(|d| d == last)
            .map(|i| i as i64),
    }
}

/// A dim as a rule names it: (`dim`, `dim_attr`) from "最后一维" (-1), "第二维" (1), "dim维"/"dim指定的轴"
/// (the integer attribute `dim`).
fn dim_ref(op: &OpIr, s: &str) -> Option<(i64, Option<String>)> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if s.starts_with("最后") || s.starts_with("尾轴") {
        return Some((-1, None));
    }
    if s.starts_with('第') || s.starts_with("倒数") {
        let n = ordinal_index(s.trim_end_matches(['维', '度', '个']))?;
        return Some(if s.starts_with("倒数") {
            (-n - 1, None)
        } else {
            (n, None)
        });
    }
    let name: String = s
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let p = text::resolve(op, &name)?;
    (p.role == Role::Attribute && p.kind() == ParamKind::Int).then(|| (0, Some(p.name.clone())))
}

fn tensor_list(op: &OpIr, list: &str) -> Option<Vec<String>> {
    list.split(['、', '，', ',', '和', '与', '或', '及'])
        .filter(|w| !w.trim().is_empty())
        .map(|w| {
            text::resolve(op, w.trim())
                .filter(|p| p.role.is_tensor())
                .map(|p| p.name.clone())
        })
        .collect()
}

/// "out、outGelu在dim维的size不等于self在dim维size的1/2", "x最后一维不等于gradY最后一维的2倍": one dim
/// of each named tensor is a fixed multiple or fraction of the same dim of another (`DimsScaled`).
pub(super) fn scaled_dim_rules(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let c = SCALED_DIM.captures(clause.trim())?;
    let (dim, dim_attr) = dim_ref(op, &c[2])?;
    if dim_ref(op, &c[4])? != (dim, dim_attr.clone()) {
        return None;
    }
    let rhs = tensor_list(op, &c[3])?.pop()?;
    let int = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<i64>().ok());
    let (num, den) = match (int(5), int(6), int(7), c.get(8)) {
        (Some(k), ..) => (k, 1),
        (None, Some(n), Some(d), _) => (n, d),
        (.., Some(_)) => (1, 2),
        _ => return None,
    };
    if num < 1 || den < 1 {
        return None;
    }
    Some(
        tensor_list(op, &c[1])?
            .into_iter()
            .map(|lhs| Rule::DimsScaled {
                lhs,
                rhs: rhs.clone(),
                dim,
                dim_attr: dim_attr.clone(),
                num,
                den,
            })
            .collect(),
    )
}

/// "out的shape跟self的shape除了dim指定的轴外需要保持一致，dim指定的轴为self的shape对应轴的一半" and
/// "gradOut的shape不满足(*1,M,*2)其中M = N /2，N为self根据dim指定的该维度上的数值": the shape of another
/// tensor with one dim scaled (`ShapeSameExcept` + `DimsScaled`).
pub(super) fn scaled_shape_rules(op: &OpIr, text: &str) -> Option<Vec<Rule>> {
    let text = text.trim();
    let (lhs, rhs, (dim, dim_attr), den) = if let Some(c) = SAME_BUT_HALVED.captures(text) {
        if c[2] != c[4] {
            return None;
        }
        let den = match (c.get(5), c.get(6), c.get(7)) {
            (Some(_), ..) => 2,
            (None, Some(n), Some(d)) if n.as_str() == "1" => d.as_str().parse().ok()?,
            _ => return None,
        };
        (
            tensor_list(op, &c[1])?,
            tensor_list(op, &c[2])?.pop()?,
            dim_ref(op, &c[3])?,
            den,
        )
    } else if let Some(c) = STAR_SHAPE_SCALED.captures(text) {
        let p = text::resolve(op, &c[4])?;
        if p.role != Role::Attribute || p.kind() != ParamKind::Int {
            return None;
        }
        (
            tensor_list(op, &c[1])?,
            tensor_list(op, &c[3])?.pop()?,
            (0, Some(p.name.clone())),
            c[2].parse().ok()?,
        )
    } else {
        return None;
    };
    if den < 1 {
        return None;
    }
    let mut rules = Vec::new();
    for l in lhs {
        rules.push(Rule::ShapeSameExcept {
            lhs: l.clone(),
            rhs: rhs.clone(),
            dim,
            dim_attr: dim_attr.clone(),
        });
        rules.push(Rule::DimsScaled {
            lhs: l,
            rhs: rhs.clone(),
            dim,
            dim_attr: dim_attr.clone(),
            num: 1,
            den,
        });
    }
    Some(rules)
}

/// "x与y的shape的非尾轴的大小不一致": one rank, equal dims but the named one (`ShapeSameExcept`).
pub(super) fn same_but_dim_rules(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    let c = SAME_BUT_DIM.captures(clause.trim())?;
    let (dim, dim_attr) = dim_ref(op, c.get(3).or(c.get(4))?.as_str())?;
    Some(vec![Rule::ShapeSameExcept {
        lhs: tensor_list(op, &c[1])?.pop()?,
        rhs: tensor_list(op, &c[2])?.pop()?,
        dim,
        dim_attr,
    }])
}

/// "对于每一个维度d，有index.size(d) <= src.size(d)；且d != dim时，index.size(d) <= self.size(d)",
/// "除了dim指定的维度，其他维度上index的size大于self": dims of one tensor bounded by another's.
/// `None` unless every bound the text states names tensors (and a dim attribute) of the op.
pub(super) fn size_bound_rules(op: &OpIr, text: &str) -> Option<Vec<Rule>> {
    let tensor = |n: &str| {
        text::resolve(op, n)
            .filter(|p| p.role.is_tensor())
            .map(|p| p.name.clone())
    };
    let dim_attr = |n: &str| match dim_ref(op, n)? {
        (_, Some(attr)) => Some(attr),
        _ => None,
    };
    if let Some(c) = SIZE_OVER_EXCEPT.captures(text.trim().trim_end_matches('。')) {
        return Some(vec![Rule::DimsAtMost {
            lhs: tensor(&c[2])?,
            rhs: tensor(&c[3])?,
            except_attr: Some(dim_attr(&c[1])?),
        }]);
    }
    let mut rules = Vec::new();
    for c in SIZE_BOUND.captures_iter(text) {
        let except_attr = match c.get(1) {
            Some(m) => Some(dim_attr(m.as_str())?),
            None => None,
        };
        rules.push(Rule::DimsAtMost {
            lhs: tensor(&c[2])?,
            rhs: tensor(&c[3])?,
            except_attr,
        });
    }
    (!rules.is_empty()).then_some(rules)
}

/// The op's string attribute that names its tensors' layout ("dataFormat": "NCHW" or "NHWC").
pub(super) fn layout_attr(op: &OpIr) -> Option<String> {
    op.params
        .iter()
        .find(|p| {
            p.role == Role::Attribute && p.kind() == ParamKind::Str && {
                let n = p.name.to_ascii_lowercase();
                n.contains("format") || n.contains("layout")
            }
        })
        .map(|p| p.name.clone())
}

/// "x1、x2中的Tensor数量不一致": tensor lists of one length.
pub(super) fn list_len_same(subjects: &[&Param]) -> Result<Vec<Rule>, Manual> {
    let lists: Vec<String> = subjects
        .iter()
        .filter(|p| matches!(p.role, Role::InputTensorList | Role::OutputTensorList))
        .map(|p| p.name.clone())
        .collect();
    if lists.len() < 2 {
        return Err(Manual::new(
            ManualKind::UnknownName,
            "a tensor-count equality that names fewer than two tensor lists",
        ));
    }
    Ok(vec![Rule::ListLenSame { params: lists }])
}
