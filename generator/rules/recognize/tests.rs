//! The recognizer on conditions as docs write them.

use super::shapes::stated_rank;
use super::*;
use crate::fixture::{self, attr, ParamFixture};
use aclnn_runtime::{DType, Factor, Format};
use std::collections::BTreeMap;

/// A tensor as the pool ops have them: dtypes on ascend910b, NCDHW or ND, rank 4 to 5.
fn tensor(name: &str, role: Role) -> Param {
    fixture::tensor(name, role)
        .with_dtypes(
            &["ascend910b"],
            &[DType::BFloat16, DType::Float16, DType::Float32],
        )
        .with_formats(&[Format::Ncdhw, Format::Nd])
        .with_rank(4, 5)
}

/// The shape of seed 000 (AdaptiveAvgPool3dBackward).
fn pool3d() -> OpIr {
    fixture::op(
        "AdaptiveAvgPool3dBackward",
        &[("ascend910b", true), ("ascend910", false)],
        vec![
            tensor("gradOutput", Role::InputTensor),
            tensor("self", Role::InputTensor),
            tensor("out", Role::OutputTensor),
        ],
    )
}

/// The shape of MaxUnpool2d (ND or NCHW tensors of rank 3 to 4), with tensors of other layouts
/// beside: channels-last `y`, `mixed` (NCHW or NHWC), private `nz`, and plain `input` (rank 2 to
/// 8, its channel axis pinned to the second dim) and `x` (the same, unpinned).
fn named_axes_2d() -> OpIr {
    let t = |name: &str, role, formats: &[Format]| {
        tensor(name, role).with_formats(formats).with_rank(3, 4)
    };
    let plain = |name: &str| {
        tensor(name, Role::InputTensor)
            .with_formats(&[Format::Nd])
            .with_rank(2, 8)
    };
    let mut input = plain("input");
    input.constraints = vec!["默认第二维为channel轴".into()];
    fixture::op(
        "MaxUnpool2d",
        &[("ascend910b", true)],
        vec![
            t("self", Role::InputTensor, &[Format::Nd, Format::Nchw]),
            t("gradOutput", Role::InputTensor, &[Format::Nd, Format::Nchw]),
            attr("outputSize", "const aclIntArray*", &[]),
            t("y", Role::InputTensor, &[Format::Nhwc]),
            t("mixed", Role::InputTensor, &[Format::Nchw, Format::Nhwc]),
            t("nz", Role::InputTensor, &[Format::FractalNz]),
            input,
            plain("x"),
            t("out", Role::OutputTensor, &[Format::Nd, Format::Nchw]),
        ],
    )
}

/// `pool3d()` with more parameters after its tensors.
fn pool3d_with(params: Vec<Param>) -> OpIr {
    let mut op = pool3d();
    op.params.extend(params);
    op
}

/// The shape of seed 003 (AvgPool2dBackward).
fn pool2d() -> OpIr {
    let t = |name: &str, role| {
        let mut p = tensor(name, role);
        p.formats = vec![Format::Nchw, Format::Ncl];
        p.rank = None;
        p
    };
    let mut cube = attr("cubeMathType", "int8_t", &[]);
    cube.enum_values = (0..4)
        .map(|v| (v, format!("V{v}")))
        .collect::<BTreeMap<_, _>>();
    fixture::op(
        "AvgPool2dBackward",
        &[
            ("ascend910b", true),
            ("ascend910_93", true),
            ("ascend910", true),
            ("ascend950", true),
        ],
        vec![
            t("gradOutput", Role::InputTensor),
            t("self", Role::InputTensor),
            attr("kernelSize", "const aclIntArray*", &["长度为1(kH=kW)或2(kH, kW)，数值大于0。"]),
            attr("stride", "const aclIntArray*", &["长度为0（sH=kH,sW=kW）或者1（sH=sW）或2（sH, sW）"]),
            attr("padding", "const aclIntArray*", &["长度为1（padH=padW）或2（padH, padW）"]),
            attr("ceilMode", "bool", &[]),
            attr(
                "divisorOverride",
                "int64_t",
                &["Atlas 推理系列产品、Atlas 训练系列产品：支持范围为[-255,255]，0表示不影响padding是否参与平均计算。"],
            ),
            cube,
            t("gradInput", Role::OutputTensor),
        ],
    )
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn dtype_and_format_in_one_row() {
    let rules = recognize(
        &pool3d(),
        "gradOutput和self的数据类型和数据格式不在支持的范围之内。",
    )
    .unwrap();
    let kinds: Vec<&str> = rules
        .iter()
        .map(|r| match r {
            Rule::DtypeIn { .. } => "dtype",
            Rule::FormatIn { .. } => "format",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["dtype", "dtype", "format", "format"]);
    // Only products the op supports carry a list.
    let Rule::DtypeIn { allowed, .. } = &rules[0] else {
        unreachable!()
    };
    assert_eq!(allowed.keys().collect::<Vec<_>>(), ["ascend910b"]);
}

#[test]
fn seed_000_invalid_rows() {
    let op = pool3d();
    assert_eq!(
        recognize(&op, "3. gradOutput、self和out的维数不等于4或5。").unwrap()[2],
        Rule::RankIn {
            param: "out".into(),
            min: 4,
            max: 5
        }
    );
}

#[test]
fn seed_001_rows() {
    let op = context("seed_001_rows");
    assert_eq!(
        recognize(&op, "3. 输入输出的shape不是4维或者5维。")
            .unwrap()
            .len(),
        4
    );
}

#[test]
fn seed_003_rows() {
    let op = pool2d();
    let rules = recognize(
        &op,
        "传入的gradOutput、self、kernelSize、stride或gradInput维度不在支持范围内。",
    )
    .unwrap();
    assert!(
        rules.contains(&Rule::RankIn {
            param: "self".into(),
            min: 3,
            max: 4
        }),
        "{rules:?}"
    );
    assert!(
        rules.contains(&Rule::ListLenIn {
            param: "stride".into(),
            lens: vec![0, 1, 2]
        }),
        "{rules:?}"
    );
    let rules = recognize(
        &op,
        "传入的gradOutput、self、kernelSize、stride或gradInput某个维度值小于0。",
    )
    .unwrap();
    assert!(rules.contains(&Rule::DimsPositive {
        param: "self".into(),
        allow_zero: true
    }));
    assert!(rules.contains(&Rule::ListElemsInRange {
        param: "kernelSize".into(),
        min: Some(0),
        max: None
    }));
}

#[test]
fn unexpressible_conditions_say_why() {
    let op = pool3d();
    assert!(recognize(
        &op,
        "gradOutput、self做数据类型推导后的结果不在支持的范围之内。"
    )
    .is_err());
    assert!(recognize(&op, "outputMask[1]为True且gradWeightOut为空指针。").is_err());
    let why = recognize(&op, "normalizedShape的维度不在支持范围内。").unwrap_err();
    assert!(why.reason.contains("normalizedShape"), "{why}");
    assert!(recognize(&op, "gradOutput不满足broadcast关系。").is_err());
    // A condition of several parts scopes the clause after it: no unconditional dtype list.
    let why = recognize(
        &op,
        "gradOutput为BFLOAT16，self为FLOAT16或者FLOAT32时，out数据类型只支持BFLOAT16。",
    )
    .unwrap_err();
    assert_eq!(why.kind, ManualKind::Conditional, "{why}");
    // "进行计算时" is when, not a value of an argument: the alternative before it still reads.
    let rank = recognize(
        &op,
        "self不是4维，或者进行计算时，shape不满足[m, k]和[k, n]的k维度相等关系。",
    );
    assert!(
        matches!(
            &rank.as_deref(),
            Ok([Rule::RankIn { min: 4, max: 4, .. }, ..])
        ),
        "{rank:?}"
    );
}

#[test]
fn non_null_prefix_and_inherited_subjects() {
    let op = pool3d();
    let rules = recognize(&op, "self的数据类型不在支持的范围之内，或shape不一致。").unwrap_err();
    assert_eq!(rules.kind, ManualKind::UnknownName, "{rules}");
    assert!(rules.reason.contains("fewer than two"), "{rules}");
    assert_eq!(
        recognize(
            &op,
            "gradOutput、self的数据格式不在支持的范围之内，或数据类型不一致。"
        )
        .unwrap()[2],
        Rule::DtypeSame {
            params: s(&["gradOutput", "self"])
        }
    );
}

#[test]
fn neither_nor_lengths_and_axis_relations() {
    let mut op = context("neither_nor_lengths_and_axis_relations");
    op.params.push(attr("dim", "int64_t", &[]));
    let axis = vec![Rule::AxisIn {
        param: "dim".into(),
        tensor: "self".into(),
    }];
    for text in [
        "当self.dim()=0时，dim的取值不在[-1, 0]范围内；当self.dim()>0时，dim取值不在[-self.dim, self.dim()-1]范围内。",
        "入参dim超出了self的shape可选维度范围[-self.dim，self.dim-1]。",
        "dim >= self.dim()或者dim < -self.dim()。",
        "输入dim指定的轴超出输入self的维度数。",
    ] {
        assert_eq!(recognize(&op, text).unwrap(), axis, "{text}");
    }
    // A shape condition naming no relation is manual, not a guess from the parameter rows.
    assert!(recognize(&op, "gradOutput、self的shape不正确。").is_err());
    // ... while "outside the supported range" points at the table: its dtypes, and the shapes
    // it states (here the rank column).
    op.params[0]
        .dtypes
        .insert("ascend910b".into(), vec![aclnn_runtime::DType::Float32]);
    let both = recognize(&op, "gradOutput的数据类型和shape不在支持的范围之内。").unwrap();
    let dtype = recognize(&op, "gradOutput的数据类型不在支持的范围之内。").unwrap();
    assert_eq!(both[..dtype.len()], dtype[..]);
    assert!(matches!(both[0], Rule::DtypeIn { .. }), "{both:?}");
    assert!(
        matches!(&both[dtype.len()..], [Rule::RankIn { min: 4, max: 5, .. }]),
        "{both:?}"
    );
}

/// "计算输入的数据类型不一致" over tensors of several dtypes and a FLOAT32-only one (a learning
/// rate beside FLOAT16 data): equality would leave the others' FLOAT16 unusable, so the fixed one
/// is not in the group.
#[test]
fn a_tensor_of_one_fixed_dtype_is_not_in_a_dtype_equality() {
    let lr = tensor("lr", Role::InputTensor).with_dtypes(&["ascend910b"], &[DType::Float32]);
    let op = pool3d_with(vec![lr]);
    assert_eq!(
        recognize(&op, "gradOutput、self、lr的数据类型不一致。").unwrap(),
        vec![Rule::DtypeSame {
            params: s(&["gradOutput", "self"])
        }]
    );
}

#[test]
fn nd_only_formats_are_pinned_by_a_format_row_not_by_boilerplate() {
    let mut op = pool3d();
    for p in &mut op.params {
        p.formats = vec![Format::Nd];
    }
    let formats = |c: &str| {
        recognize(&op, c)
            .unwrap()
            .into_iter()
            .filter(|r| matches!(r, Rule::FormatIn { .. }))
            .count()
    };
    assert_eq!(
        formats("gradOutput和self的数据类型和数据格式不在支持的范围之内。"),
        0
    );
    assert_eq!(formats("gradOutput和self的数据格式不在支持的范围之内。"), 2);
    assert_eq!(
        formats("gradOutput和self的数据类型、数据格式是私有格式。"),
        2
    );
}

#[test]
fn derived_shapes_named_axes_and_allowed_empty_tensors_are_not_guessed() {
    let op = context("derived_shapes_named_axes_and_allowed_empty_tensors_are_not_guessed");
    // Each of these was read as a stricter rule that rejects valid calls.
    for c in [
        "out的shape不等于self根据dim拆分后的shape。",
        "self不为1D tensor或空tensor。",
    ] {
        assert!(recognize(&op, c).is_err(), "{c}: {:?}", recognize(&op, c));
    }
    // A joint emptiness rejects an empty self only while out is not empty.
    assert_eq!(
        recognize(&op, "self是空tensor，out不是空tensor。").unwrap(),
        vec![Rule::WhenTensor {
            param: "out".into(),
            state: aclnn_runtime::TensorState::NotEmpty,
            rule: Box::new(Rule::NotEmpty {
                param: "self".into()
            }),
        }]
    );
}

#[test]
fn inconsistent_with_the_description_is_no_mutual_equality() {
    let mut op = pool3d();
    op.params[1].description = "shape与gradOutput一致。".into();
    // self and out share nothing by the descriptions; gradOutput/self do.
    let rules = recognize(&op, "gradOutput、self、out的shape与参数说明中不一致。").unwrap();
    assert!(
        !rules
            .iter()
            .any(|r| matches!(r, Rule::ShapeSame { params } if params.len() == 3)),
        "{rules:?}"
    );
    assert!(rules.contains(&Rule::ShapeSame {
        params: s(&["self", "gradOutput"])
    }));
}

#[test]
fn padding_bounds_and_dim_sizes() {
    let op = context("padding_bounds_and_dim_sizes");
    // The same bounds, worded as CANN's other pooling docs word them.
    for wording in [
        "padding的数值中存在小于0或者大于kernelSize/2",
        "padding中存在小于0或者大于kernelSize/2的数值。",
        "padding的值不在[0, kernelSize/2]的范围内。",
    ] {
        assert_eq!(
            recognize(&op, wording).unwrap(),
            recognize(&op, "padding的数值中存在小于0或者大于kernelSize/2的值。").unwrap(),
            "{wording}"
        );
    }
    // An even dim is a multiple of 2 (`DimMultipleOf`).
    assert!(matches!(
        recognize(&op, "self的最后一维不是偶数。").unwrap()[..],
        [Rule::DimMultipleOf { by: 2, dim: -1, .. }]
    ));
    assert!(recognize(
        &op,
        "out的维度数与self不一致，或out在dim对应维度上的大小不等于self的一半。"
    )
    .is_err());
}

#[test]
fn rank_phrasings() {
    assert_eq!(stated_rank("不是4维或者5维").unwrap(), Some((4, 5)));
    assert_eq!(stated_rank("维度超过8维").unwrap(), Some((0, 8)));
    assert_eq!(stated_rank("维数不在[3-4]").unwrap(), Some((3, 4)));
    assert!(stated_rank("维数不等于2或4").is_err());
    assert_eq!(stated_rank("维度不在支持范围内").unwrap(), None);
    // Ranks in Chinese numerals.
    assert_eq!(
        stated_rank("indices的维度不是零维、一维或二维").unwrap(),
        Some((0, 2))
    );
}

#[test]
fn dims_that_must_be_multiples() {
    let op = context("dims_that_must_be_multiples");
    // Only under a dtype: a `WhenDtype`.
    assert!(matches!(
        recognize(&op, "out的数据类型为INT32时，self的最后一维不能被8整除。").unwrap()[..],
        [Rule::WhenDtype { .. }]
    ));
    // An axis the doc defines elsewhere ("反量化轴") is not a dim this reads.
    assert!(recognize(&op, "self的反量化轴大小不是偶数。").is_err());
}

#[test]
fn lead_ins_that_set_no_condition() {
    let op = pool3d();
    // "如果传入参数类型为aclTensor且其…" means every tensor of the op.
    let rules = recognize(
        &op,
        "如果传入参数类型为aclTensor且其数据类型不在支持的范围之内。",
    )
    .unwrap();
    let named: Vec<&str> = rules
        .iter()
        .filter_map(|r| match r {
            Rule::DtypeIn { param, .. } => Some(param.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(named, ["gradOutput", "self", "out"]);
}

#[test]
fn a_named_role_word_and_enum_names_in_a_when_prefix() {
    let mut op = pool3d();
    op.params.push(attr("isResult", "bool", &[]));
    let mut reduction = attr("reduction", "int64_t", &[]);
    reduction.enum_values = [(0, "none".to_string()), (1, "mean".to_string())]
        .into_iter()
        .collect();
    op.params.push(reduction);
    let Rule::When { param, values, .. } =
        &recognize(&op, "参数isResult为True时，self是空tensor。").unwrap()[0]
    else {
        panic!("no When rule")
    };
    assert_eq!((param.as_str(), values.as_slice()), ("isResult", &[1][..]));
    let Rule::When {
        param,
        values,
        negate,
        ..
    } = &recognize(&op, "reduction不是none时，self是空tensor。").unwrap()[0]
    else {
        panic!("no When rule")
    };
    assert_eq!(
        (param.as_str(), values.as_slice(), *negate),
        ("reduction", &[0][..], true)
    );
    // A word the description does not name stays unrecognized, not guessed.
    assert!(recognize(&op, "reduction不是sum时，self是空tensor。").is_err());
}

/// An op with string attributes (`char*`) as ops-nn's quant and norm docs describe them.
fn string_attrs(constraints: &[(&str, &[&str])]) -> OpIr {
    let mut params = vec![
        tensor("x", Role::InputTensor),
        attr("axis", "int64_t", &["取值范围为[-1, 1]"]),
    ];
    for (name, c) in constraints {
        params.push(attr(name, "const char*", c));
    }
    params.push(tensor("y", Role::OutputTensor));
    fixture::op("StringAttrs", &[("ascend910b", true)], params)
}

fn str_in(param: &str, values: &[&str]) -> Rule {
    Rule::StrIn {
        param: param.into(),
        values: s(values),
    }
}

#[test]
fn a_string_condition_that_lists_its_values() {
    let other = string_attrs(&[("fusedOpType", &[]), ("reduction", &[])]);
    assert_eq!(
        recognize(
            &other,
            r#"传入的fusedOpType不属于""、"add"以及"relu"中的一种。"#
        )
        .unwrap(),
        vec![str_in("fusedOpType", &["", "add", "relu"])]
    );
    assert_eq!(
        recognize(&other, "reduction值不在'none'|'mean'|'sum'范围之内。").unwrap(),
        vec![str_in("reduction", &["none", "mean", "sum"])]
    );
}

#[test]
fn a_string_out_of_range_takes_the_values_the_description_lists() {
    let cases: [(&str, &[&str], &[&str]); 8] = [
        (
            "roundMode",
            &[
                "支持取值round/ceil/trunc/floor/hybrid",
                "当输入x的数据格式为NZ时，支持取值round",
            ],
            &["round", "ceil", "trunc", "floor", "hybrid"],
        ),
        (
            "roundMode",
            &[
                r#"支持{"rint", "round", "hybrid"}模式"#,
                r#"selfRef的数据类型为INT8/FLOAT8_E4M3FN/FLOAT8_E5M2时，仅支持{"rint"}"#,
                r#"数据类型为HIFLOAT8，支持{"round", "hybrid"}"#,
            ],
            &["rint", "round", "hybrid"],
        ),
        ("roundMode", &[r#"仅支持"rint"模式"#], &["rint"]),
        (
            "roundMode",
            &[r#"roundMode支持"rint"、"round"、"floor"，传入空指针时，采用"rint"模式"#],
            &["rint", "round", "floor"],
        ),
        (
            "approximate",
            &[r#"取值为"tanh"或"none""#],
            &["tanh", "none"],
        ),
        (
            "approximate",
            &[r#"可配置为"none"或者"tanh"，其中"none"代表使用erf模式，"tanh"代表使用tanh模式"#],
            &["none", "tanh"],
        ),
        ("dataFormat", &["支持NHWC或NCHW"], &["NHWC", "NCHW"]),
        (
            "roundMode",
            &["支持取值round，ceil，trunc，floor"],
            &["round", "ceil", "trunc", "floor"],
        ),
    ];
    for (name, constraints, values) in cases {
        let op = string_attrs(&[(name, constraints)]);
        for condition in [
            format!("{name}不在有效取值范围。"),
            format!("{name}不在支持的范围之内。"),
            format!("{name}不符合当前支持的值。"),
        ] {
            assert_eq!(
                recognize(&op, &condition).unwrap(),
                vec![str_in(name, values)],
                "{condition} with {constraints:?}"
            );
        }
    }
    // Next to an integer attribute of the same clause.
    let op = string_attrs(&[("roundMode", &[r#"仅支持"rint"模式"#])]);
    let rules = recognize(&op, "axis, roundMode不在支持的范围之内。").unwrap();
    assert!(rules.contains(&str_in("roundMode", &["rint"])), "{rules:?}");
}

#[test]
fn a_string_list_that_cannot_be_read_exactly_stays_manual() {
    let manual = |constraints: &[&str], condition: &str| {
        let op = string_attrs(&[("roundMode", constraints)]);
        recognize(&op, condition).unwrap_err().reason
    };
    // No list at all.
    let why = manual(&[], "roundMode不在有效取值范围。");
    assert!(why.contains("lists no values"), "{why}");
    // Lists only per product or under a condition.
    let why = manual(
        &[
            "Atlas A2 训练系列产品：支持取值round，ceil",
            "当dstType为HIFLOAT8时，支持round和hybrid",
        ],
        "roundMode不在有效取值范围。",
    );
    assert!(why.contains("only under conditions"), "{why}");
    // Lists that do not nest: which one holds is not said.
    let why = manual(
        &["支持取值round、floor", "Atlas 推理系列产品：支持取值rint"],
        "roundMode不在有效取值范围。",
    );
    assert!(why.contains("do not nest"), "{why}");
    // "不支持" and prose are no lists; a value condition naming no set stays manual.
    let why = manual(
        &["roundMode暂不支持，传入空指针nullptr"],
        "roundMode不在有效取值范围。",
    );
    assert!(why.contains("lists no values"), "{why}");
    let why = manual(&[r#"仅支持"rint""#], "roundMode的值为空字符串。");
    assert!(why.contains("names no set of values"), "{why}");
}

#[test]
fn string_value_lists_as_docs_write_them() {
    assert_eq!(
        infer::string_value_list(r#"{"none", "tanh"}"#),
        Some(s(&["none", "tanh"]))
    );
    assert_eq!(infer::string_value_list("“dynamic”"), Some(s(&["dynamic"])));
    assert_eq!(
        infer::string_value_list("NCHW或NHWC"),
        Some(s(&["NCHW", "NHWC"]))
    );
    assert_eq!(
        infer::string_value_list(r#""rint"模式"#),
        Some(s(&["rint"]))
    );
    assert_eq!(infer::string_value_list("空Tensor"), None);
    assert_eq!(infer::string_value_list(r#""rint"等"#), None);
    assert_eq!(infer::string_value_list(""), None);
}

#[test]
fn a_row_allowing_under_a_condition_what_it_rejects_is_manual() {
    let mut op = pool3d();
    op.params.push(attr("transposed", "bool", &[]));
    // Either sentence separator: docs write "；" or ";".
    for sep in ["；", "; "] {
        let row = format!("self和out数据类型不一致{sep}transposed=false时，支持self和out数据类型不一致，不会触发该类型报错。");
        let why = recognize(&op, &row).unwrap_err();
        assert_eq!(why.kind, ManualKind::Exception, "{why}");
        assert!(
            why.reason.starts_with("an exception under a condition"),
            "{why}"
        );
    }
    // Without the exception the row is a rule.
    assert!(recognize(&op, "self和out数据类型不一致；").is_ok());
}

#[test]
fn a_condition_no_prefix_reads_keeps_the_rest_manual() {
    let mut op = pool3d();
    op.params.push(attr("mode", "const char*", &[]));
    let why = recognize(&op, "当mode属于\"add\"、\"mul\"中的一种时，out是空tensor。").unwrap_err();
    assert!(
        why.reason
            .starts_with("conditional on other arguments' values"),
        "{why}"
    );
    // A string attribute's values are a prefix the recognizer reads.
    assert_eq!(
        recognize(&op, "mode为\"add\"、\"mul\"时，out是空tensor。").unwrap(),
        vec![Rule::WhenStr {
            param: "mode".into(),
            values: vec!["add".into(), "mul".into()],
            negate: false,
            rule: Box::new(Rule::NotEmpty {
                param: "out".into()
            }),
        }]
    );
    // Presence is what every rule presumes.
    assert!(recognize(&op, "gradOutput和self都为有效输入时，两者的数据类型不同。").is_ok());
}

#[test]
fn an_unreadable_alternative_leaves_the_readable_ones_checked() {
    let op = pool3d();
    let reading = read_condition(
        &op,
        "gradOutput、self的数据类型不在支持的范围之内，或shape不相互匹配。",
    )
    .unwrap();
    assert!(
        matches!(&reading.rules[..], [Rule::DtypeIn { param, .. }, Rule::DtypeIn { .. }] if param == "gradOutput")
    );
    let unread = reading.unread.expect("the shape alternative is named");
    assert!(unread.reason.contains("或shape不相互匹配"), "{unread}");
    // The strict reading, as a whole, is manual.
    assert!(recognize(
        &op,
        "gradOutput、self的数据类型不在支持的范围之内，或shape不相互匹配。"
    )
    .is_err());
}

/// "dstType、mode不符合当前支持的值": each attribute's own range; one the doc states none of is
/// left out and named, the others are checked.
#[test]
fn several_attributes_out_of_their_ranges_are_read_one_by_one() {
    let op = pool3d_with(vec![
        attr("dstType", "int64_t", &["输入范围为{35, 36}"]),
        attr("mode", "int64_t", &[]),
    ]);
    let reading = read_condition(&op, "dstType、mode不符合当前支持的值。").unwrap();
    assert_eq!(
        reading.rules,
        vec![Rule::IntIn {
            param: "dstType".into(),
            values: vec![35, 36]
        }]
    );
    let unread = reading.unread.expect("mode's range is not stated");
    assert!(unread.reason.contains("mode"), "{unread}");
    // A relation between attributes is not split.
    let op = pool3d_with(vec![
        attr("quantMin", "int64_t", &[]),
        attr("quantMax", "int64_t", &[]),
    ]);
    assert!(recognize(&op, "quantMin大于quantMax。").is_ok());
}

#[test]
fn an_unreadable_conditional_alternative_keeps_the_condition_manual() {
    // The scope of "perMode场景下" may cover the alternatives after it: none is unconditional.
    let mut op = pool3d();
    op.params.push(attr("mode", "int64_t", &[]));
    let why = read_condition(
        &op,
        "perMode场景下gradOutput的维度不为4，或者self的维度不为5。",
    )
    .unwrap_err();
    assert_eq!(why.kind, ManualKind::Conditional, "{why}");
}

#[test]
fn a_clause_without_or_is_no_alternative() {
    let why = read_condition(&pool3d(), "gradOutput的shape不合法，self的维度不为5。").unwrap_err();
    assert!(why.reason.contains("shape不合法"), "{why}");
}

/// The shape of GroupNorm: a tensor and the integer attributes that describe its sizes.
fn group_norm() -> OpIr {
    pool3d_with(
        ["N", "C", "HxW", "group"]
            .map(|name| attr(name, "int64_t", &[]))
            .into(),
    )
}

#[test]
fn integer_attributes_are_related_to_tensor_sizes() {
    let op = group_norm();
    let tuple = recognize(&op, "gradOutput与out的shape不为(N, group)。").unwrap();
    assert_eq!(tuple.len(), 6, "{tuple:?}");
    assert!(matches!(&tuple[0], Rule::RankIn { param, min: 2, max: 2 } if param == "gradOutput"));
}

#[test]
fn a_relation_naming_no_integer_attribute_is_not_read_as_one() {
    // "kernelSize" is no integer attribute of the op: the clause is left to the other readers.
    let op = group_norm();
    assert!(ints::int_relation_rules(&op, "self的元素数量不等于kernelSize").is_none());
    assert!(ints::int_relation_rules(&op, "self不能被group整除").is_none());
}

#[test]
fn element_values_of_a_list_are_bounded_by_its_table_not_its_length() {
    let mut op = context("element_values_of_a_list_are_bounded_by_its_table_not_its_length");
    // A list whose table bounds no element is not guessed at.
    op.params.push(attr(
        "dilation",
        "const aclIntArray*",
        &["数组长度必须为1或3"],
    ));
    assert!(recognize(&op, "dilation中的元素数值不满足要求。")
        .unwrap_err()
        .reason
        .contains("no bound on the elements of dilation"));
}

#[test]
fn element_counts_that_must_agree() {
    let mut op = pool3d();
    op.params.push(tensor("scales", Role::InputTensor));
    op.params.push(tensor("zeroPoints", Role::InputTensor));
    let numel = |p: &str| vec![Factor::Numel(p.into())];
    for wording in [
        "输入scales和zeroPoints的size不相等。",
        "scales和zeroPoints的元素数量不等。",
    ] {
        assert_eq!(
            recognize(&op, wording).unwrap(),
            vec![Rule::ProductsEqual {
                lhs: numel("scales"),
                rhs: numel("zeroPoints")
            }],
            "{wording}"
        );
    }
    // The counts of some dims are not the tensors' element counts.
    assert!(recognize(
        &op,
        "self的第0，2，3维的元素个数和gradOutput的第0，1，2维元素个数不相等。"
    )
    .is_err());
}

/// An op with the given tensors (inputs, then `out`) and attributes.
fn op_of(tensors: &[(&str, Role)], attrs: Vec<Param>) -> OpIr {
    let mut op = pool3d();
    op.params = tensors.iter().map(|(n, r)| tensor(n, *r)).collect();
    op.params.extend(attrs);
    op
}

#[test]
fn a_matrix_product_is_not_its_operands() {
    let op = op_of(
        &[
            ("self", Role::InputTensor),
            ("mat1", Role::InputTensor),
            ("mat2", Role::InputTensor),
            ("out", Role::OutputTensor),
        ],
        vec![],
    );
    for condition in [
        "self不能与mat1@mat2做broadcast操作。",
        "out和mat1@mat2 shape不一致。",
    ] {
        let err = recognize(&op, condition).unwrap_err();
        assert_eq!(err.kind, ManualKind::Vocabulary, "{condition}: {err}");
        assert!(err.reason.contains("matrix product"), "{condition}: {err}");
    }
}

#[test]
fn a_pointer_that_must_be_null_is_not_a_null_check() {
    let op = context("a_pointer_that_must_be_null_is_not_a_null_check");
    // An optional tensor the doc reserves must be null; a required one would be a contradiction.
    assert_eq!(
        recognize(&op, "传入的bias不是空指针。").unwrap(),
        vec![Rule::IsNull {
            param: "bias".into()
        }]
    );
    let err = recognize(&op, "传入的x不是空指针。").unwrap_err();
    assert!(err.reason.contains("must be null"), "{}", err.reason);
}

#[test]
fn one_value_excepted_from_a_bound_is_not_the_bound() {
    let op = op_of(
        &[("x", Role::InputTensor)],
        vec![attr("clampLimit", "double", &[])],
    );
    let err = recognize(&op, "clampLimit不为-1.0且不大于0。").unwrap_err();
    assert_eq!(err.kind, ManualKind::Exception, "{err}");
    assert!(err.reason.contains("exception for one value"), "{err}");
}

#[test]
fn leading_or_trailing_dims_are_not_the_whole_rank_or_shape() {
    let op = op_of(
        &[
            ("logits", Role::InputTensor),
            ("topK", Role::InputTensor),
            ("target", Role::InputTensor),
        ],
        vec![],
    );
    for condition in [
        "topK的维度与logits的前n-1维不一致。",
        "topK的维度和logits的维度的后几维不一致。",
        "logits.shape[:-1] 与target.shape不一致。",
    ] {
        assert!(recognize(&op, condition).is_err(), "{condition}");
    }
}

#[test]
fn a_maximum_length_is_not_the_length() {
    let mut list = tensor("scaledGrads", Role::InputTensorList);
    list.constraints = vec!["支持的最大长度为256个。".into()];
    assert_eq!(infer::list_lens(&list), None);
    list.constraints = vec!["长度为2。".into()];
    assert_eq!(infer::list_lens(&list), Some(vec![2]));
}

#[test]
fn a_mismatch_of_tensors_the_table_shapes_differently_is_no_equality() {
    let op = context("a_mismatch_of_tensors_the_table_shapes_differently_is_no_equality");
    let err = recognize(&op, "x1、gamma、out的shape不匹配。").unwrap_err();
    assert_eq!(err.kind, ManualKind::Contradiction, "{err}");
    assert!(err.reason.contains("different shapes"), "{err}");
}

#[test]
fn a_row_that_states_the_requirement_reads_as_its_violation() {
    let op = context("a_row_that_states_the_requirement_reads_as_its_violation");
    assert_eq!(
        recognize(&op, r#"mode仅支持"avg"和"max"两种取值。"#).unwrap(),
        vec![Rule::StrIn {
            param: "mode".into(),
            values: vec!["avg".into(), "max".into()]
        }]
    );
}

#[test]
fn a_relation_between_two_doubles_compares_numbers() {
    let rule = Rule::ValueAtMost {
        lhs: "from".into(),
        rhs: "to".into(),
    };
    let call = |from: f64, to: f64| aclnn_runtime::Call {
        product: "ascend910b".into(),
        args: [
            ("from".to_string(), aclnn_runtime::Arg::Float(from)),
            ("to".to_string(), aclnn_runtime::Arg::Float(to)),
        ]
        .into(),
    };
    let checked = |c| {
        aclnn_runtime::check(
            &[aclnn_runtime::CheckedRule {
                rule: rule.clone(),
                code: 161002,
                condition: "from大于to。".into(),
                inferred: false,
            }],
            &c,
        )
    };
    assert!(checked(call(2.4, 4.5)).is_ok());
    assert!(checked(call(4.5, 2.4)).is_err());
}

#[test]
fn rank_arithmetic_particular_dims_and_list_elements_stay_manual() {
    let op = op_of(
        &[
            ("x1", Role::InputTensor),
            ("batch1", Role::InputTensor),
            ("batch2", Role::InputTensor),
            ("mxscaleOut", Role::OutputTensor),
        ],
        vec![],
    );
    for (condition, reason) in [
        ("mxscaleOut的维度数不等于输入x1的维度数+1。", "arithmetic"),
        (
            "batch1和batch2的第一维度不相等或不能做broadcast操作。",
            "particular dims",
        ),
        ("x1[0] 必须为4维;", "one element"),
    ] {
        let err = recognize(&op, condition).unwrap_err();
        assert!(err.reason.contains(reason), "{condition}: {}", err.reason);
    }
}

#[test]
fn several_tensors_between_which_shapes_mismatch_name_no_relation() {
    let op = op_of(
        &[
            ("positions", Role::InputTensor),
            ("queryIn", Role::InputTensor),
        ],
        vec![],
    );
    let err = recognize(&op, "多个输入tensor之间的shape信息不匹配。").unwrap_err();
    assert_eq!(err.kind, ManualKind::UnknownName, "{err}");
    assert!(err.reason.contains("names neither"), "{err}");
}

#[test]
fn tensors_whose_stated_shapes_differ_are_not_equal() {
    let op = context("tensors_whose_stated_shapes_differ_are_not_equal");
    let err = recognize(&op, "positions、queryIn的shape不一致。").unwrap_err();
    assert_eq!(err.kind, ManualKind::Contradiction, "{err}");
    assert!(err.reason.contains("different shapes"), "{err}");
}

#[test]
fn a_private_format_tensor_states_its_storage_rank() {
    let op = context("a_private_format_tensor_states_its_storage_rank");
    // The call's shape is the view (batch, k, n); the table's 5 dims are the NZ storage.
    let read = recognize(&op, "x2的shape不满足校验条件。");
    assert!(read.is_err(), "{read:?}");
}

#[test]
fn a_dtype_equality_with_an_acl_data_type_argument() {
    let op = context("a_dtype_equality_with_an_acl_data_type_argument");
    let is_arg = |param: &str| Rule::DtypeIsArg {
        param: param.into(),
        arg: "dtype".into(),
    };
    for condition in [
        "参数dtype和out的数据类型不一致。",
        "输出out的数据类型与输入dtype的取值不一致。",
        "dtype数据类型与out数据类型不一致。",
    ] {
        assert_eq!(
            recognize(&op, condition).unwrap(),
            vec![is_arg("out")],
            "{condition}"
        );
    }
}

#[test]
fn a_scalar_dtype_is_checked_only_as_stated_against_a_tensor() {
    let mut scalar = attr("scalar", "const aclScalar*", &[]);
    scalar.dtypes = [("ascend910b".into(), vec![DType::Int32])]
        .into_iter()
        .collect();
    let mut op = op_of(&[("x", Role::InputTensor)], vec![scalar]);
    let condition = "x、scalar的数据类型不在支持的范围之内。";
    let x_list = Rule::DtypeIn {
        param: "x".into(),
        allowed: (op.params[0].dtypes.iter())
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    };
    // The table list of an aclScalar is loose: aclnn casts scalars.
    assert_eq!(recognize(&op, condition).unwrap(), vec![x_list.clone()]);
    op.params[1].dtypes_given = vec![crate::ir::DtypesGiven {
        on: "x".into(),
        when: vec![DType::Float16],
        allowed: vec![DType::Float16, DType::Float64],
        products: vec![],
    }];
    let given = Rule::WhenDtype {
        param: "x".into(),
        dtypes: vec![DType::Float16],
        rule: Box::new(Rule::DtypeIn {
            param: "scalar".into(),
            allowed: [(
                "ascend910b".to_string(),
                vec![DType::Float16, DType::Float64],
            )]
            .into_iter()
            .collect(),
        }),
    };
    assert_eq!(recognize(&op, condition).unwrap(), vec![x_list, given]);
}

/// The parameter context a fixture names: one of the ops above, or the op a test builds.
fn context(name: &str) -> OpIr {
    match name {
        "pool3d" => pool3d(),
        "named_axes_2d" => named_axes_2d(),
        "named_axes_3d" => pool3d(),
        "pool2d" => pool2d(),
        "group_norm" => group_norm(),
        "seed_001_rows" => {
            let mut op = pool3d();
            op.params = vec![
                tensor("gradOutput", Role::InputTensor),
                tensor("self", Role::InputTensor),
                tensor("indices", Role::InputTensor),
                tensor("gradInput", Role::OutputTensor),
            ];
            op
        }
        "required_pointer_rule_covers_all_required" => {
            let mut op = pool3d();
            op.params[2].optional = true;
            op
        }
        "when_prefix_makes_conditional_rules" => {
            let mut op = pool3d();
            let mut mask = attr("outputMask", "const aclBoolArray*", &[]);
            mask.role = Role::Attribute;
            op.params.push(mask);
            op.params[2].optional = true;
            op
        }
        "statements_joined_by_a_pause_mark_and_value_sets" => {
            let mut op = pool3d();
            op.params.push(tensor("selfRef", Role::InOutTensor));
            op.params.push(tensor("indices", Role::InputTensor));
            op
        }
        "negated_bounds_and_value_pairs" => pool3d_with(vec![
            attr("numLayers", "int64_t", &[]),
            attr("approximate", "int64_t", &[]),
        ]),
        "neither_nor_lengths_and_axis_relations" => pool3d_with(vec![
            attr("kernelSize", "const aclIntArray*", &[]),
            attr("stride", "const aclIntArray*", &[]),
        ]),
        "a_dim_named_in_a_bound_is_no_subject_of_a_value_row" => {
            let mut index = attr("index", "const aclIntArray*", &[]);
            index.description =
                "指定self在dim维度将要填充的下标。其中的元素值小于self对应dim的维度大小。".into();
            pool3d_with(vec![attr("dim", "int64_t", &[]), index])
        }
        "dim_index_and_value_sets" => pool3d_with(vec![
            attr("dim", "int64_t", &[]),
            attr("reduction", "int64_t", &[]),
        ]),
        "an_attribute_described_as_a_dim_of_a_tensor_is_an_axis" => {
            let mut op = pool3d();
            let mut axis = attr("axis", "int32_t", &[]);
            axis.description =
                "指定`scale`和`offset`对应`self`的维度。当输入`self`的数据格式为NZ时，取值为-1。"
                    .into();
            op.params.push(axis);
            let mut dims = attr("dims", "const aclIntArray*", &[]);
            dims.description = "指定了self将要填充的维度。".into();
            op.params.push(dims);
            op
        }
        "an_output_shape_from_an_input_and_a_size_list" => pool3d_with(vec![
            attr("outputSize", "const aclIntArray*", &["长度为3"]),
            attr("dims", "const aclIntArray*", &[]),
        ]),
        "dims_bounded_by_their_description" => pool3d_with(vec![attr(
            "dims",
            "const aclIntArray*",
            &["取值范围为[-self.dim(), self.dim()-1]"],
        )]),
        "slice_lists" => pool3d_with(vec![
            attr("begin", "const aclIntArray*", &[]),
            attr("end", "const aclIntArray*", &[]),
            attr("strides", "const aclIntArray*", &[]),
        ]),
        "a_count_attribute" => pool3d_with(vec![attr("bins", "int64_t", &[])]),
        "an_in_place_binary_op" => {
            let mut op = pool3d();
            op.params = vec![
                tensor("selfRef", Role::InOutTensor),
                tensor("other", Role::InputTensor),
            ];
            op
        }
        "a_mode_over_complex_operands" => {
            let complex = |name: &str, role| {
                fixture::tensor(name, role).with_dtypes(
                    &["ascend910b"],
                    &[DType::Float32, DType::Complex64, DType::Complex128],
                )
            };
            let mut op = pool3d();
            op.params = vec![
                complex("self", Role::InputTensor),
                complex("other", Role::InputTensor),
                attr("mode", "int64_t", &[]),
                complex("out", Role::OutputTensor),
            ];
            op
        }
        "an_outer_product" => {
            let mut op = pool3d();
            op.params = vec![
                tensor("self", Role::InputTensor).with_rank(1, 1),
                tensor("vec2", Role::InputTensor).with_rank(1, 1),
                tensor("out", Role::OutputTensor).with_rank(2, 2),
            ];
            op
        }
        "real_or_complex_input" => {
            let mut op = pool3d();
            op.params = vec![
                fixture::tensor("self", Role::InputTensor).with_dtypes(
                    &["ascend910b"],
                    &[
                        DType::Float16,
                        DType::Float32,
                        DType::Complex32,
                        DType::Complex64,
                    ],
                ),
                fixture::tensor("out", Role::OutputTensor).with_dtypes(
                    &["ascend910b"],
                    &[DType::Float16, DType::Float32, DType::Complex64],
                ),
            ];
            op
        }
        "dims_list" => pool3d_with(vec![attr("dim", "const aclIntArray*", &[])]),
        "dim_out_of_bounds_and_rank_words" => pool3d_with(vec![attr("dim", "int64_t", &[])]),
        "attribute_order_and_non_null_subject" => pool3d_with(vec![
            attr("quantMin", "int64_t", &[]),
            attr("quantMax", "int64_t", &[]),
        ]),
        "shape_against_a_list_attribute" => {
            let mut op = pool3d();
            op.params
                .push(attr("normalizedShape", "const aclIntArray*", &[]));
            op.params[0].optional = true;
            op
        }
        "dtype_equality_leaves_out_tensors_that_share_no_dtype" => {
            let mut op = pool3d();
            let mut index = tensor("index", Role::InputTensor);
            index.dtypes = [("ascend910b".into(), vec![DType::Int32, DType::Int64])]
                .into_iter()
                .collect();
            op.params.insert(1, index);
            op
        }
        "derived_shapes_named_axes_and_allowed_empty_tensors_are_not_guessed" => {
            pool3d_with(vec![attr("dim", "int64_t", &[])])
        }
        "promotion_of_every_input_leaves_out_quantization_parameters" => {
            let mut op = pool3d();
            let mut scale = tensor("deqScale", Role::InputTensor);
            scale.dtypes = [("ascend910b".into(), vec![DType::UInt64])]
                .into_iter()
                .collect();
            op.params.insert(2, scale);
            op
        }
        "padding_bounds_and_dim_sizes" => pool3d_with(vec![
            attr("padding", "const aclIntArray*", &[]),
            attr("kernelSize", "const aclIntArray*", &[]),
        ]),
        "dims_that_must_be_multiples" => pool3d_with(vec![attr("dim", "int64_t", &[])]),
        "vague_value_rows_take_the_descriptions_bounds" => pool3d_with(vec![
            attr("blank", "int64_t", &["数值必须大于等于0且小于C"]),
            attr("beta", "float", &["该值必须是非负的"]),
            attr("innerPrecise", "int", &["表示计算模式（仅支持传入0或1）。其他场景建议传入0。"]),
            attr(
                "activateDim",
                "int64_t",
                &["activateDim的取值范围是：[-selfDim, selfDim - 1]（其中selfDim指输入self的维度）"],
            ),
        ]),
        "sizes_that_match_a_channel_axis" => {
            let mut op = pool3d();
            for name in ["weight", "mean", "invstd"] {
                op.params.push(tensor(name, Role::InputTensor));
            }
            op.params.push(attr("biasG", "bool", &[]));
            op
        }
        "dims_and_shapes_scaled_from_another_tensor" => {
            let mut op = pool3d();
            op.params.push(tensor("outGelu", Role::OutputTensor));
            op.params.push(attr("dim", "int64_t", &[]));
            op
        }
        "rules_that_hold_under_a_tensors_state" => {
            let t = |name: &str, role| {
                let mut p = tensor(name, role);
                p.rank = None;
                p
            };
            let o = |name: &str| {
                let mut p = t(name, Role::InputTensor);
                p.optional = true;
                p
            };
            let mut mask = attr("outputMaskOptional", "const aclBoolArray*", &[]);
            mask.optional = true;
            let mut op = pool3d();
            op.params = vec![
                t("gradOutput", Role::InputTensor),
                t("self", Role::InputTensor),
                t("indices", Role::InputTensor),
                t("selfRef", Role::InOutTensor),
                t("index", Role::InputTensor),
                t("source", Role::InputTensor),
                t("updates", Role::InputTensor),
                t("repeats", Role::InputTensor),
                o("scaleOptional"),
                o("shiftOptional"),
                o("smoothScale1Optional"),
                o("smoothScale2Optional"),
                o("quantScaleOptional"),
                o("quantOffsetOptional"),
                mask,
                attr("dim", "int64_t", &[]),
                attr("offsetArray", "const float*", &[]),
                attr("offsetSize", "uint64_t", &[]),
                t("out", Role::OutputTensor),
            ];
            op
        }
        "rules_that_hold_under_a_dtype" => {
            let mut op = pool3d();
            op.params.push(tensor("y", Role::OutputTensor));
            op
        }
        "scalars_join_the_promotion" => {
            let mut op = fixture::op(
                "Adds",
                &[("ascend910b", true)],
                vec![
                    tensor("self", Role::InputTensor),
                    attr("other", "const aclScalar*", &[]),
                    attr("alpha", "const aclScalar*", &[]),
                    attr("threshold", "const aclScalar*", &[]),
                    attr("value", "const aclScalar*", &[]),
                    attr("k", "int64_t", &[]),
                    tensor("out", Role::OutputTensor),
                ],
            );
            // alpha is cast to the promoted dtype apart, so it is no operand of the promotion.
            op.errors.push(crate::ir::ErrorCase {
                code: 161002,
                condition: "alpha无法转换为self和other推导后的数据类型。".into(),
                ..Default::default()
            });
            op
        }
        "a_scalar_that_scales_several_tensors_is_no_operand" => fixture::op(
            "IndexAdd",
            &[("ascend910b", true)],
            vec![
                tensor("self", Role::InputTensor),
                attr("dim", "int64_t", &[]),
                tensor("index", Role::InputTensor),
                tensor("source", Role::InputTensor),
                attr("alpha", "const aclScalar*", &[]),
                tensor("out", Role::OutputTensor),
            ],
        ),
        "scalar_bounds_passed_in_order" => pool3d_with(vec![
            attr("min", "const aclScalar*", &[]),
            attr("max", "const aclScalar*", &[]),
        ]),
        "scalars_that_must_cast" => pool3d_with(vec![
            attr("alpha", "const aclScalar*", &[]),
            attr("beta", "const aclScalar*", &[]),
            attr("k", "int64_t", &[]),
        ]),
        "a_group_shape_equality_keeps_the_tensors_the_descriptions_tie" => {
            let mut op = pool3d();
            op.params[0].constraints = vec!["shape要求与输入self保持一致".into()];
            let mut beta = tensor("beta1Power", Role::InputTensor);
            beta.constraints = vec!["shape要求为[1]".into()];
            op.params.push(beta);
            op
        }
        "conditions_on_a_string_value_or_any_list_element" => {
            let mut op = string_attrs(&[
                ("quantMode", &["支持取值static/dynamic"]),
                ("fusedOpType", &["支持取值add/mul/relu"]),
                ("inputLayout", &[]),
            ]);
            for name in ["scale", "x3"] {
                op.params.push(Param {
                    optional: true,
                    ..tensor(name, Role::InputTensor)
                });
            }
            op.params.push(tensor("indices", Role::InputTensor));
            op.params.push(attr("pad", "const aclIntArray*", &[]));
            op.params.push(attr("dims", "const aclIntArray*", &[]));
            op.params.push(tensor("out", Role::OutputTensor));
            op
        }
        "a_string_condition_that_lists_its_values" => string_attrs(&[
            ("quantMode", &["当前版本仅支持“dynamic”"]),
            ("dataFormat", &[]),
        ]),
        "dims_bounded_by_another_tensors_dims" => pool3d_with(vec![attr("dim", "int64_t", &[])]),
        "a_layout_attribute_names_the_channel_axis" => {
            pool3d_with(vec![attr("dataFormat", "char*", &[])])
        }
        "open_and_closed_bounds_of_a_float" => pool3d_with(vec![
            attr("clipRatio", "double", &[]),
            attr("eps", "double", &[]),
            attr("beta", "float", &[]),
        ]),
        "element_values_of_a_list_are_bounded_by_its_table_not_its_length" => pool3d_with(vec![
            attr(
                "kernelSize",
                "const aclIntArray*",
                &["数组长度必须为1或3", "数组元素必须都大于0"],
            ),
            attr(
                "padding",
                "const aclIntArray*",
                &[
                    "数组长度必须为1或3",
                    "数组元素必须都大于等于0且小于等于kernelSize/2",
                ],
            ),
            attr(
                "stride",
                "const aclIntArray*",
                &[
                    "数组长度必须为0，1或3",
                    "数组元素必须都大于0",
                    "当数组的长度为0时，内部会取kernelSize的值作为strides",
                ],
            ),
        ]),
        "a_pointer_that_must_be_null_is_not_a_null_check" => {
            let mut op = op_of(
                &[("x", Role::InputTensor), ("out", Role::OutputTensor)],
                vec![],
            );
            let mut bias = tensor("bias", Role::InputTensor);
            bias.optional = true;
            op.params.push(bias);
            op
        }
        "shape_size_of_a_tensor_list_is_each_tensors_element_count" => op_of(
            &[
                ("x", Role::InputTensorList),
                ("out", Role::OutputTensorList),
            ],
            vec![],
        ),
        "a_rank_not_above_a_bound_is_the_error" => op_of(&[("self", Role::InputTensor)], vec![]),
        "a_row_that_states_the_requirement_reads_as_its_violation" => op_of(
            &[("rois", Role::InputTensor)],
            vec![
                attr("samplingRatio", "int", &[]),
                attr("spatialScale", "float", &[]),
                attr("mode", "const char*", &[]),
            ],
        ),
        "a_bool_held_to_one_value" => op_of(
            &[("self", Role::InputTensor)],
            vec![
                attr("modulated", "bool", &[]),
                attr("fixTriuMask", "bool", &[]),
                attr("keepDim", "bool", &[]),
                attr("alpha", "int64_t", &[]),
            ],
        ),
        "a_relation_between_two_doubles_compares_numbers" => op_of(
            &[("selfRef", Role::InputTensor)],
            vec![attr("from", "double", &[]), attr("to", "double", &[])],
        ),
        "a_note_in_parentheses_is_no_alternative_and_no_value_condition" => op_of(
            &[("self", Role::InputTensor)],
            vec![
                attr("stride", "const aclIntArray*", &[]),
                attr("kernelSize", "const aclIntArray*", &[]),
            ],
        ),
        "a_dtype_equality_with_an_acl_data_type_argument" => op_of(
            &[("self", Role::InputTensor), ("out", Role::OutputTensor)],
            vec![attr("dtype", "aclDataType", &[])],
        ),
        "out_names_the_one_output" => fixture::op(
            "L1LossBackward",
            &[("ascend910b", true)],
            vec![
                tensor("gradOutput", Role::InputTensor),
                tensor("self", Role::InputTensor),
                tensor("gradInput", Role::OutputTensor),
            ],
        ),
        "a_plural_parameter_answers_to_its_singular_2" => {
            // AvgPool2d names its lists `paddings` and `strides`; its rows say "padding".
            let mut op = pool2d();
            for p in &mut op.params {
                if p.name == "padding" || p.name == "stride" {
                    p.name.push('s');
                }
            }
            op
        }
        "required_pointer_rule_covers_all_required_2" => {
            let mut op = context("required_pointer_rule_covers_all_required");
            // The prototype's workspaceSize and executor are parameters too, though not validated.
            op.functions = vec![crate::ir::Function {
                name: "aclnnAdaptiveAvgPool3dBackwardGetWorkspaceSize".into(),
                params: ["gradOutput", "self", "out", "workspaceSize", "executor"]
                    .iter()
                    .map(|n| crate::ir::CParam {
                        name: n.to_string(),
                        ty: crate::ir::CType::default(),
                    })
                    .collect(),
                ..Default::default()
            }];
            op
        }
        "statements_joined_by_a_pause_mark_and_value_sets_2" => {
            let mut op = context("statements_joined_by_a_pause_mark_and_value_sets");
            op.params.push(attr("threshold", "const aclScalar*", &[]));
            op
        }
        "statements_joined_by_a_pause_mark_and_value_sets_3" => {
            let mut op = context("statements_joined_by_a_pause_mark_and_value_sets_2");
            op.params.push(attr("isResult", "bool", &[]));
            op.params.push(attr("alpha", "float", &[]));
            op
        }
        "neither_nor_lengths_and_axis_relations_2" => {
            let mut op = context("neither_nor_lengths_and_axis_relations");
            op.params.push(attr("dim", "int64_t", &[]));
            op.params[0]
                .dtypes
                .insert("ascend910b".into(), vec![aclnn_runtime::DType::Float32]);
            op
        }
        "mutual_broadcast_and_tilde_ranges_2" => {
            let mut op = pool3d();
            // An output whose table states its shape under a condition is left to that condition.
            op.params[2].constraints =
                vec!["若reduction取值为'none'，则shape需要与self一致".into()];
            op
        }
        "mutual_broadcast_and_tilde_ranges_3" => {
            let mut op = context("mutual_broadcast_and_tilde_ranges_2");
            op.params.push(attr("reduction", "int64_t", &[]));
            op
        }
        "mutual_broadcast_and_tilde_ranges_4" => {
            let mut op = context("mutual_broadcast_and_tilde_ranges_3");
            op.params.push(attr("stride", "const aclIntArray*", &[]));
            op
        }
        "attribute_order_and_non_null_subject_2" => {
            let mut op = context("attribute_order_and_non_null_subject");
            op.params[0].optional = true;
            op
        }
        "sizes_that_match_a_channel_axis_2" => {
            let mut op = context("sizes_that_match_a_channel_axis");
            // A doc that pins the channel axis ("默认第二维为channel轴") means that dim, whatever the format.
            op.params[1].constraints =
                vec!["默认第二维为channel轴，且channel轴大小不能为0。".into()];
            op
        }
        "lead_ins_that_set_no_condition_2" => {
            let mut op = pool3d();
            // "…小于0情况下不满足要求": the tail restates the condition.
            op.params.push(attr("stride", "const aclIntArray*", &[]));
            op
        }
        "shape_size_is_an_element_count_and_all_dims_but_one_are_equal_2" => {
            pool3d_with(vec![attr("dim", "int64_t", &[])])
        }
        "element_values_of_a_list_are_bounded_by_its_table_not_its_length_2" => {
            let mut op =
                context("element_values_of_a_list_are_bounded_by_its_table_not_its_length");
            op.params.push(attr(
                "dilation",
                "const aclIntArray*",
                &["数组长度必须为1或3"],
            ));
            op
        }
        "a_mismatch_of_tensors_the_table_shapes_differently_is_no_equality" => {
            let mut op = op_of(
                &[
                    ("x1", Role::InputTensor),
                    ("gamma", Role::InputTensor),
                    ("out", Role::OutputTensor),
                ],
                vec![],
            );
            op.params[1].constraints = vec!["shape需要与`x1`后几维保持一致。".into()];
            op
        }
        "a_mismatch_of_tensors_the_table_shapes_differently_is_no_equality_2" => {
            let mut op =
                context("a_mismatch_of_tensors_the_table_shapes_differently_is_no_equality");
            // Tensors the table does not tell apart still read as an equality.
            op.params[1].constraints.clear();
            op
        }
        "tensors_whose_stated_shapes_differ_are_not_equal" => {
            let mut op = op_of(
                &[
                    ("positions", Role::InputTensor),
                    ("queryIn", Role::InputTensor),
                    ("out", Role::OutputTensor),
                ],
                vec![],
            );
            op.params[0].constraints = vec!["rope模式shape为(numTokens)".into()];
            op.params[1].constraints = vec!["shape为(numTokens, numQHeads*headSize)".into()];
            op
        }
        "tensors_whose_stated_shapes_differ_are_not_equal_2" => {
            let mut op = context("tensors_whose_stated_shapes_differ_are_not_equal");
            // A tensor whose shape is, in some mode, another's states no shape of its own.
            op.params[0]
                .constraints
                .push("数据类型为INT4时，shape与queryIn一致".into());
            op
        }
        "a_private_format_tensor_states_its_storage_rank" => {
            let mut op = op_of(&[("x2", Role::InputTensor)], vec![]);
            op.params[0].formats = vec![aclnn_runtime::Format::FractalNz];
            op.params[0].rank = Some(crate::ir::Rank { min: 5, max: 5 });
            op
        }
        "a_private_format_tensor_states_its_storage_rank_2" => {
            let mut op = context("a_private_format_tensor_states_its_storage_rank");
            op.params[0].formats = vec![aclnn_runtime::Format::Nd];
            op
        }
        "negated_alternatives_and_value_comparisons" => {
            let mut op = pool3d();
            op.params[2].rank = None;
            let mut beta = attr("betaOptional", "const aclScalar*", &[]);
            beta.optional = true;
            op.params.push(beta);
            op.params.push(attr("dim", "int64_t", &[]));
            op.params.push(attr("axis", "int64_t", &[]));
            op.params
                .push(attr("kernelSize", "const aclIntArray*", &[]));
            op
        }
        "an_axis_of_the_one_input_tensor" => {
            let mut op = pool3d_with(vec![attr("dim", "int64_t", &[])]);
            op.params.remove(0);
            op
        }
        "a_vague_shape_row_takes_the_tables_shape_statements" => {
            // SyncBatchNormGatherStats: 2-D sums, 1-D counts and means tied to their dims.
            let mut sums = tensor("totalSum", Role::InputTensor).with_rank(2, 2);
            sums.constraints = vec!["第一维必须大于0".into()];
            let mut count = tensor("sampleCount", Role::InputTensor).with_rank(1, 1);
            count.constraints = vec![
                "第一维必须大于0".into(),
                "shape与totalSum的第一维一致".into(),
            ];
            let mut mean = tensor("mean", Role::InputTensor).with_rank(1, 1);
            mean.constraints = vec!["shape与totalSum的第二维一致".into()];
            let mut op = pool3d();
            op.params = vec![sums, count, mean];
            op
        }
        "a_list_beside_tensors_in_a_vague_shape_row" => {
            // A pad op: 2-D to 3-D tensors and a padding list of two.
            let mut op = pool3d();
            op.params = vec![
                tensor("self", Role::InputTensor).with_rank(2, 3),
                attr("padding", "const aclIntArray*", &["长度为2"]),
                tensor("out", Role::OutputTensor).with_rank(2, 3),
            ];
            op
        }
        other => panic!("no parameter context {other}"),
    }
}

/// A fixture of `fixtures/`: conditions read against one parameter context.
#[derive(serde::Deserialize)]
struct Fixture {
    context: String,
    conditions: Vec<String>,
}

/// What the recognizer makes of one condition: its rules, or why it stays manual (with rules:
/// what a partial reading leaves out).
#[derive(serde::Serialize)]
struct FixtureReading<'a> {
    condition: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<Vec<Rule>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    manual: Option<String>,
}

/// Every fixture in `fixtures/` (a parameter context and conditions as docs write them) read by
/// the recognizer, against its reviewed snapshot in `fixtures/snapshots/`.
#[test]
fn fixtures_match_their_reviewed_snapshots() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generator/rules/recognize/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    for path in files {
        let fixture: Fixture =
            serde_yaml::from_str(&std::fs::read_to_string(&path).expect("read fixture"))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let op = context(&fixture.context);
        let readings: Vec<FixtureReading> = fixture
            .conditions
            .iter()
            .map(|condition| match read_condition(&op, condition) {
                Ok(reading) => FixtureReading {
                    condition,
                    rules: Some(reading.rules),
                    manual: reading.unread.map(|m| m.reason),
                },
                Err(why) => FixtureReading {
                    condition,
                    rules: None,
                    manual: Some(why.reason),
                },
            })
            .collect();
        let name = path
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .into_owned();
        insta::with_settings!({
            snapshot_path => "fixtures/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => format!("fixtures/{name}.yaml"),
        }, {
            insta::assert_yaml_snapshot!(name, readings);
        });
    }
}

/// One reading of a dtype list for every condition that names dtypes: a prefix ("y的数据类型为
/// INT4时") and a stated list ("数据类型不为INT64") split and spell them alike.
#[test]
fn dtype_lists_in_conditions() {
    use super::common::dtype_list;
    assert_eq!(
        dtype_list("DT_INT32、ACL_INT64"),
        Some(vec![DType::Int32, DType::Int64])
    );
    assert_eq!(
        dtype_list("FLOAT16或者BFLOAT16/FLOAT16"),
        Some(vec![DType::Float16, DType::BFloat16])
    );
    assert_eq!(dtype_list("FLOAT16或x"), None);
    assert_eq!(dtype_list(""), None);
}

/// "…不等时。" at the end of a row is the row's own condition ("when they differ"), not a
/// condition scoping a rest: it reads as the row without it.
#[test]
fn a_trailing_when_is_the_condition_itself() {
    let op = pool3d();
    assert_eq!(
        recognize(&op, "gradOutput和self的元素数量不等时。"),
        recognize(&op, "gradOutput和self的元素数量不等。")
    );
    assert!(recognize(&op, "gradOutput和self的元素数量不等时。").is_ok());
}

/// Words docs use interchangeably read alike: "不符合" as "不满足" (a requirement "不符合>0" is
/// still its violation, not the bound itself), "不同" as "不一致" (but "不同时", "not both"),
/// "张量" as "Tensor", a leading "传入的" before a list of attributes, values listed with ",",
/// and "不在支持范围内" as "不在支持的范围之内" after a promotion.
#[test]
fn synonyms_docs_use_read_alike() {
    let op = pool3d_with(vec![
        attr("numLayers", "int64_t", &[]),
        attr("dstType", "int64_t", &["输入范围为{35, 36}"]),
        attr("mode", "int64_t", &[]),
    ]);
    let min_one = vec![Rule::IntInRange {
        param: "numLayers".into(),
        min: Some(1),
        max: None,
    }];
    assert_eq!(recognize(&op, "numLayers不满足>0。").unwrap(), min_one);
    assert_eq!(recognize(&op, "numLayers不符合>0。").unwrap(), min_one);
    assert_eq!(
        recognize(&op, "gradOutput和self的shape不同。").unwrap(),
        recognize(&op, "gradOutput和self的shape不一致。").unwrap()
    );
    assert_eq!(
        text::normalize_condition("gradOutput和self不同时为空。"),
        "gradOutput和self不同时为空"
    );
    assert_eq!(
        recognize(&op, "传入非空张量的数据类型不在支持的范围之内。").unwrap(),
        recognize(&op, "传入非空tensor的数据类型不在支持的范围之内。").unwrap()
    );
    let reading = read_condition(&op, "传入的dstType、mode的值不在支持范围内。").unwrap();
    assert_eq!(
        reading.rules,
        vec![Rule::IntIn {
            param: "dstType".into(),
            values: vec![35, 36]
        }]
    );
    assert!(recognize(
        &op,
        "gradOutput、self做数据类型推导后的结果不在支持范围内。"
    )
    .is_err());
    let op = string_attrs(&[("fusedOpType", &[])]);
    let comma = recognize(&op, "fusedOpType为add,mul时，传入的x为空指针。").unwrap();
    assert!(
        format!("{comma:?}").contains(r#"["add", "mul"]"#),
        "{comma:?}"
    );
    assert_eq!(
        comma,
        recognize(&op, "fusedOpType为add、mul时，传入的x为空指针。").unwrap()
    );
}

/// Comparison symbols read as their words ("!=" as "不等于", "<=" as "小于等于"), a rank chain
/// "1<=rank(x)<=8" as the ranks allowed, names joined by "/" as alternatives, "入参x" as "x",
/// and "0、1与2" as a value list.
#[test]
fn symbols_slashes_and_lead_words_read_as_docs_mean_them() {
    let op = pool3d_with(vec![
        attr("kernelSize", "const aclIntArray*", &[]),
        attr("mode", "int64_t", &[]),
    ]);
    let same = |a: &str, b: &str| {
        assert_eq!(
            recognize(&op, a).unwrap(),
            recognize(&op, b).unwrap(),
            "{a} / {b}"
        )
    };
    same("self的维度>5。", "self的维度大于5。");
    same("self的维度<=3。", "self的维度小于等于3。");
    same("self的维度小于等于3。", "self的维度不大于3。");
    same("kernelSize的长度!=3。", "kernelSize的长度不等于3。");
    same(
        "gradOutput/self的数据类型不在支持的范围之内。",
        "gradOutput或self的数据类型不在支持的范围之内。",
    );
    same("入参self的维度不等于4或5。", "self的维度不等于4或5。");
    same(
        "mode的取值不在0、1与2范围内。",
        "mode的取值不在0、1和2范围内。",
    );
    assert_eq!(
        recognize(&op, "shape不满足要求：1<=rank(self)<=5。").unwrap(),
        vec![Rule::RankIn {
            param: "self".into(),
            min: 1,
            max: 5
        }]
    );
    // An arrow is no comparison.
    assert_eq!(
        text::normalize_condition("equation为a,b->ab时"),
        "equation为a,b->ab时"
    );
}

/// Spellings found by respelling the corpus's rows, each read as its usual form: "Shape" as
/// "shape" (a misread "out的Shape不等于self根据dim拆分后的Shape" was an equality), a trailing "时"
/// (a reversed cast), "不是" as "不为", "参数x" as "x" (not "参数shape"), an attribute compared as it
/// stands ("dim大于…", "dim不在[-N, N-1]之间", "padding不在[0, kernelSize/2]的范围内"), and "A但B"
/// as a joint condition, which no rule of one parameter says.
#[test]
fn respellings_of_the_corpus_read_alike() {
    let op = pool3d_with(vec![
        attr("dim", "int64_t", &[]),
        attr("scaleAlg", "int64_t", &[]),
        attr("maxLowBound", "int64_t", &[]),
        attr("kernelSize", "const aclIntArray*", &[]),
        attr("padding", "const aclIntArray*", &[]),
    ]);
    let same =
        |a: &str, b: &str| assert_eq!(recognize(&op, a).ok(), recognize(&op, b).ok(), "{a} / {b}");
    same(
        "out的Shape不等于self根据dim拆分后的Shape。",
        "out的shape不等于self根据dim拆分后的shape。",
    );
    same(
        "out的数据类型不是self可转换的时。",
        "out的数据类型不是self可转换的。",
    );
    same(
        "gradOutput的元素数量不是dim。",
        "gradOutput的元素数量不为dim。",
    );
    same(
        "参数out的数据类型不是self可转换的。",
        "out的数据类型不是self可转换的。",
    );
    same(
        "dim不在[-self的维度数量, self的维度数量-1]之间。",
        "dim的值不在[-self的维度数量, self的维度数量-1]之间。",
    );
    same(
        "padding不在[0, kernelSize/2]的范围内。",
        "padding的值不在[0, kernelSize/2]的范围内。",
    );
    assert_eq!(
        text::normalize_condition("参数shape不合法。"),
        "参数shape不合法"
    );
    same("self的shape超过八维。", "self的shape超过8维。");
    same(
        "gradOutput的类型不在支持的范围之内。",
        "gradOutput的数据类型不在支持的范围之内。",
    );
    // An ordinal keeps its numeral.
    assert_eq!(
        text::normalize_condition("x的最后一维和y的倒数第二维不相等"),
        "x的最后一维和y的倒数第二维不一致"
    );
    let why = recognize(&op, "maxLowBound不为0但scaleAlg不为1。").unwrap_err();
    assert!(why.reason.contains("joint"), "{why}");
}

#[test]
fn a_lists_count_its_elements_and_how_many_act_are_told_apart() {
    let op = op_of(
        &[("self", Role::InputTensor), ("out", Role::OutputTensor)],
        vec![attr("repeats", "const aclIntArray*", &[])],
    );
    // The number of entries is the list's length, not a bound on its values (Repeat: CANN takes
    // repeats=[10]).
    assert_eq!(
        recognize(&op, "repeats的参数个数超过8。").unwrap(),
        vec![Rule::ListLenIn {
            param: "repeats".into(),
            lens: (0..=8).collect()
        }]
    );
    // Its values are its elements.
    assert_eq!(
        recognize(&op, "参数repeats中含有小于0的值。").unwrap(),
        vec![Rule::ListElemsInRange {
            param: "repeats".into(),
            min: Some(0),
            max: None
        }]
    );
    // How many dims an operation acts on is neither (CANN takes [1,1,1,1,2]).
    assert!(recognize(&op, "同时对超过4个维度做repeat。").is_err());
}

#[test]
fn a_tensor_state_joined_by_qie_to_another_argument_is_one_condition() {
    let op = op_of(
        &[("self", Role::InputTensor), ("out", Role::OutputTensor)],
        vec![attr("numClasses", "int64_t", &[])],
    );
    let under = |state, min| Rule::WhenTensor {
        param: "self".into(),
        state,
        rule: Box::new(Rule::IntInRange {
            param: "numClasses".into(),
            min: Some(min),
            max: None,
        }),
    };
    // OneHot: "[0]" with numClasses 3 and "[4]" with 0 are both accepted.
    assert_eq!(
        recognize(&op, "self为空Tensor，且numClasses小于等于0。").unwrap(),
        vec![under(TensorState::Empty, 1)]
    );
    assert_eq!(
        recognize(&op, "self不为空Tensor，且numClasses小于0。").unwrap(),
        vec![under(TensorState::NotEmpty, 0)]
    );
}

#[test]
fn an_undirected_cast_row_takes_the_direction_a_description_states() {
    let mut op = op_of(
        &[("self", Role::InputTensor), ("out", Role::OutputTensor)],
        vec![],
    );
    let row = "self与out的数据类型不满足互转换关系。";
    let cast = |from: &str, to: &str| Rule::DtypeCastable {
        from: vec![from.into()],
        to: to.into(),
    };
    // Without a stated direction, the last one named is the destination.
    assert_eq!(recognize(&op, row).unwrap(), vec![cast("self", "out")]);
    // Histc: "out数据类型需要可转换为self的数据类型" in out's description.
    op.params[1].constraints = vec!["out数据类型需要可转换为self的数据类型".into()];
    assert_eq!(recognize(&op, row).unwrap(), vec![cast("out", "self")]);
    op.params[1].constraints = vec!["数据类型需要可转换为self的数据类型".into()];
    assert_eq!(recognize(&op, row).unwrap(), vec![cast("out", "self")]);
}
