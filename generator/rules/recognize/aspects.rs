//! A clause by its aspect (数据类型, 数据格式, 维数, shape, 值): dtype and format rules here, the
//! others handed to the reader of that aspect.

use super::common::names;
use super::common::same_rule;
use super::common::{dtype_kin, dtype_list};
use super::patterns::*;
use super::shapes::dim_value_rules;
use super::shapes::length_rules;
use super::shapes::numel_rules;
use super::shapes::rank_rules;
use super::shapes::shape_rules;
use super::values::is_axis_statement;
use super::values::value_rules;
use crate::ir::ManualKind;
use crate::ir::{OpIr, Param, ParamKind, Role};
use crate::rules::infer;
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{DType, Rule};

// "超出输入tensor的维度范围", "不在self的维度范围内": beyond the dims a tensor has.
re!(
    BEYOND_DIM_RANGE,
    r"(?:超出|超过|不在)[^，。；]{0,16}的?维度范围"
);

/// Subject + aspect + relation: the bulk of documented conditions.
pub(super) fn aspect_rules(
    op: &OpIr,
    clause: &str,
    subjects: &[&Param],
) -> Result<Vec<Rule>, Manual> {
    let tensors: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role.is_tensor())
        .collect();
    let attrs: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role == Role::Attribute)
        .collect();
    if EXCEPT.is_match(clause) {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            "a condition on all dims but some is not in the vocabulary",
        ));
    }
    // "shape与参数说明中不一致": not equal to each other but to what the descriptions state.
    let mismatch = MISMATCH.is_match(clause) && !CONSTRAINT_WORDS.is_match(clause);
    let dim_value = DIM_VALUE.is_match(clause);
    if let Some(read) = value_statement(op, clause, subjects, &tensors, &attrs, dim_value) {
        return read;
    }
    if tensors.is_empty() && BEYOND_DIM_RANGE.is_match(clause) {
        // "dims数组中元素超出输入tensor的维度范围": the attribute indexes a tensor's dims, the
        // tensor its description bounds it by ("取值范围为[-self.dim(), self.dim()-1]").
        let axes: Vec<Rule> = attrs
            .iter()
            .filter_map(|p| infer::axis_rule(op, p))
            .collect();
        if !axes.is_empty() && axes.len() == attrs.len() {
            return Ok(axes);
        }
    }
    let mut rules = Vec::new();
    let mut any_aspect = false;

    let dtype_args: Vec<&Param> = attrs
        .iter()
        .copied()
        .filter(|p| p.kind() == ParamKind::DataType)
        .collect();
    let about_dtype_arg = mismatch && DTYPE.is_match(clause) && !tensors.is_empty();
    if let ([arg], true) = (dtype_args.as_slice(), about_dtype_arg) {
        // "参数dtype和out的数据类型不一致": each tensor has the dtype the argument names.
        any_aspect = true;
        rules.extend(tensors.iter().map(|t| Rule::DtypeIsArg {
            param: t.name.clone(),
            arg: arg.name.clone(),
        }));
    } else if DTYPE.is_match(clause) {
        any_aspect = true;
        rules.extend(dtype_rules(op, clause, &tensors, mismatch)?);
        if !mismatch {
            // "x、scalar和out的数据类型不在支持的范围之内": an aclScalar's dtype as stated against
            // a tensor's ("当x的数据类型为FLOAT16时，数据类型支持FLOAT16、DOUBLE").
            rules.extend(
                subjects
                    .iter()
                    .filter(|p| p.is_scalar())
                    .flat_map(|p| infer::dtype_given_rules(op, p)),
            );
        }
    }
    if FORMAT.is_match(clause) {
        any_aspect = true;
        let pinned = !DTYPE.is_match(clause) || clause.contains("私有");
        rules.extend(format_rules(&tensors, mismatch, pinned)?);
    }
    if SHAPE_NUMEL.is_match(clause) && NOT_EQUAL_VALUES.is_match(clause) && !tensors.is_empty() {
        any_aspect = true;
        rules.extend(numel_rules(clause, &tensors)?);
    } else if dim_value {
        any_aspect = true;
        rules.extend(dim_value_rules(clause, subjects)?);
    } else if DIM_SIZE.is_match(clause)
        && !(SHAPE.is_match(clause) && mismatch && attrs.iter().any(|p| infer::is_int_list(p)))
    {
        return Err(Manual::new(
            ManualKind::Vocabulary,
            format!(
                "a condition on the size of particular dims (“{clause}”) is not in the vocabulary"
            ),
        ));
    } else if RANK.is_match(clause)
        && !(SHAPE.is_match(clause) && mismatch && attrs.iter().any(|p| infer::is_int_list(p)))
    {
        any_aspect = true;
        rules.extend(rank_rules(clause, subjects, mismatch)?);
    } else if SHAPE.is_match(clause) {
        match shape_rules(op, clause, &tensors, mismatch) {
            Ok(shape) => {
                any_aspect = true;
                rules.extend(shape);
            }
            // "input的数据类型、数据格式和shape不在支持的范围之内": the dtype and format lists
            // are pinned down by the doc, the shape part is not; check what is.
            Err(_) if !rules.is_empty() && !mismatch => {}
            Err(e) => return Err(e),
        }
    }
    if NUMEL.is_match(clause) && !tensors.is_empty() && attrs.is_empty() {
        any_aspect = true;
        rules.extend(numel_rules(clause, &tensors)?);
    } else if LENGTH.is_match(clause) && !dim_value && !SHAPE_NUMEL.is_match(clause) {
        // ("out的shape size不为1" is each tensor's element count, read above, not a list length.)
        any_aspect = true;
        rules.extend(length_rules(clause, subjects)?);
    }
    if !any_aspect && CONSTRAINT_WORDS.is_match(clause) && OUT_OF_RANGE.is_match(clause) {
        // "输入和输出参数不满足参数说明中的约束": what the parameter descriptions state.
        return Ok(subjects
            .iter()
            .flat_map(|p| infer::param_rules(op, p))
            .filter(|(r, _, _)| !matches!(r, Rule::NotNull { .. }))
            .map(|(r, _, _)| r)
            .collect());
    }
    if !any_aspect {
        if attrs.is_empty() {
            return Err(Manual::new(
                ManualKind::Unrecognized,
                format!("no aspect (dtype, format, shape, value) recognized in “{clause}”"),
            ));
        }
        rules.extend(value_rules(op, clause, &attrs)?);
    }
    if rules.is_empty() {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!(
                "the doc states no checkable constraint for {} behind “{clause}”",
                names(subjects).join(", ")
            ),
        ));
    }
    Ok(rules)
}

/// The attributes whose values a clause speaks of: not one that only names a dim of a tensor
/// whose size bounds another's values ("index中的值超过self指定dim的最大值" is about index alone).
fn values_compared<'a>(clause: &str, attrs: &[&'a Param]) -> Vec<&'a Param> {
    let first = text::IDENT.find(clause).map(|m| m.as_str());
    let qualifiers: Vec<&str> = DIM_QUALIFIER
        .captures_iter(clause)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .filter(|name| Some(*name) != first)
        .collect();
    attrs
        .iter()
        .copied()
        .filter(|p| !qualifiers.contains(&p.name.as_str()))
        .collect()
}

/// "dim大于self的shape大小": the clause opens on the one integer attribute it names, compared as
/// it stands, which is its value as much as "dim的值大于…" is.
fn attribute_compared(clause: &str, attrs: &[&Param]) -> bool {
    let (Some(first), [attr]) = (text::IDENT.find(clause), attrs) else {
        return false;
    };
    // An axis range ("dims超过[-N, N-1]") is the axis reader's.
    attr.name == first.as_str()
        && attr.kind() != ParamKind::Str
        && first.start() == 0
        && COMPARED_NEXT.is_match(&clause[first.end()..])
        && !AXIS_RANGE.is_match(clause)
}
re!(
    COMPARED_NEXT,
    r"^\s*(?:大于|小于|超过|超出|不在|不大于|不小于|不等于)"
);

/// A clause about attribute values as a whole: string values, values of tensor data (not
/// checkable), value bounds and axis indices. `None`: the clause is about something else.
fn value_statement(
    op: &OpIr,
    clause: &str,
    subjects: &[&Param],
    tensors: &[&Param],
    attrs: &[&Param],
    dim_value: bool,
) -> Option<Result<Vec<Rule>, Manual>> {
    if tensors.is_empty() && !attrs.is_empty() && attrs.iter().all(|p| p.kind() == ParamKind::Str) {
        // "dataFormat没有设置为NCHW或NHWC": about the strings' values, whatever words they hold.
        return Some(value_rules(op, clause, attrs));
    }
    // A note in parentheses ("(stride长度为0时，stride的数值等于kernelSize的值)") does not make a
    // length condition one on values.
    let about_values = (VALUE_WORD.is_match(&NOTE_IN_PARENS.replace_all(clause, ""))
        || attribute_compared(clause, attrs))
        && !dim_value;
    if about_values && !DTYPE.is_match(clause) && !FORMAT.is_match(clause) {
        if attrs.is_empty() {
            return Some(Err(Manual::new(
                ManualKind::RuntimeData,
                format!(
                    "a condition on tensor data (“{clause}”), which the first phase does not see"
                ),
            )));
        }
        let tensors: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.role.is_tensor())
            .collect();
        let attrs = &values_compared(clause, attrs);
        if let (Some(tensor), true) = (tensors.first(), is_axis_statement(clause, attrs)) {
            // "dim的值不在[-self的维度数量, self的维度数量-1]之间": a dim index of the tensor.
            return Some(Ok(attrs
                .iter()
                .map(|a| Rule::AxisIn {
                    param: a.name.clone(),
                    tensor: tensor.name.clone(),
                })
                .collect()));
        }
        return Some(value_rules(op, clause, attrs));
    }
    if let (Some(attr), true) = (
        attrs.first(),
        AXIS_RANGE.is_match(clause) && is_axis_statement(clause, attrs),
    ) {
        // "dim越界", "dim超出输入self的维度范围": a dim index of the (first input) tensor.
        let tensor = tensors
            .first()
            .copied()
            .or_else(|| text::input_tensors(op).into_iter().next());
        if let Some(tensor) = tensor {
            return Some(Ok(vec![Rule::AxisIn {
                param: attr.name.clone(),
                tensor: tensor.name.clone(),
            }]));
        }
    }
    None
}

pub(super) fn dtype_rules(
    op: &OpIr,
    clause: &str,
    tensors: &[&Param],
    mismatch: bool,
) -> Result<Vec<Rule>, Manual> {
    if mismatch {
        let kin = dtype_kin(tensors);
        return same_rule(&kin, "dtype", |params| Rule::DtypeSame { params });
    }
    if let Some(dtypes) = stated_dtypes(clause) {
        // "inverseOut的数据类型不为INT64", "y的数据类型必须为FLOAT32": the row names the dtypes
        // itself, on every product the op supports.
        let allowed: std::collections::BTreeMap<String, Vec<DType>> = op
            .dtype_products()
            .into_iter()
            .map(|product| (product.to_string(), dtypes.clone()))
            .collect();
        return Ok(tensors
            .iter()
            .map(|p| Rule::DtypeIn {
                param: p.name.clone(),
                allowed: allowed.clone(),
            })
            .collect());
    }
    Ok(tensors
        .iter()
        .flat_map(|p| infer::param_dtype_rules(op, p))
        .collect())
}

/// The dtypes a clause requires by name ("数据类型不为INT64", "数据类型不是FLOAT16或FLOAT32",
/// "数据类型必须为BOOL"); `None` where it names none, or names something else too.
fn stated_dtypes(clause: &str) -> Option<Vec<DType>> {
    dtype_list(&STATED_DTYPES.captures(clause)?[1])
}

/// `pinned`: the clause is about formats alone ("x的数据格式不在支持的范围之内") or names private
/// formats. ND is the format of any N-dimensional layout, so a tensor documented as ND only is
/// not pinned to it by the boilerplate "数据类型和数据格式不在支持的范围之内": CANN's elementwise
/// ops take NC1HWC0 or FRACTAL_NZ tensors there. A tensor list is: CANN's tensor-list checks
/// reject private formats (see `rules::tensor_list_formats`).
pub(super) fn format_rules(
    tensors: &[&Param],
    mismatch: bool,
    pinned: bool,
) -> Result<Vec<Rule>, Manual> {
    if mismatch {
        return same_rule(tensors, "format", |params| Rule::FormatSame { params });
    }
    Ok(tensors
        .iter()
        .filter(|p| !p.formats.is_empty())
        .filter(|p| pinned || p.role.is_tensor_list() || p.formats != [aclnn_runtime::Format::Nd])
        .map(|p| Rule::FormatIn {
            param: p.name.clone(),
            allowed: p.formats.clone(),
        })
        .collect())
}
