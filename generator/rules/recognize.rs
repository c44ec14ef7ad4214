//! The recognizer: one documented condition (Chinese text) → the rules that implement it, or
//! the reason it cannot be expressed.
//!
//! A condition is normalized, split into clauses, and each clause is read as
//! "subjects (parameters) + aspect (数据类型, 数据格式, 维数, shape, 值...) + relation
//! (不在支持范围, 不一致, 不等于4或5...)". Data the doc gives elsewhere (dtype lists, formats,
//! ranks, "长度为1或2", enumerations) comes from the IR's parameters.

use super::infer;
use super::text::{self, re};
use crate::ir::{OpIr, Param, Role};
use aclnn_runtime::Rule;

re!(TAIL, r"[，,]?\s*(?:则)?返回\s*\d+.*$|[，,]?\s*报错.*$");
re!(
    EXCLUDED,
    r"[，,]?\s*(?:但)?对(.+?)(?:无此校验|不做此校验|不校验|不做校验)"
);
re!(
    NON_NULL_WHEN,
    r"^(?:(?:当|若|如果)([^，,。；]*?)(?:不为空指针|不是空指针|非空指针|不为空|非空|存在)(?:时)?(?:[，,]\s*|且)|([A-Za-z_][A-Za-z0-9_]*(?:\s*[、和与或,，]\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:不为空指针|非空指针|不为空|非空|存在输入|存在)(?:时[，,]\s*|且))"
);
re!(
    OPTIONAL_NOTE,
    r"[（(]\s*(?:非空时|存在时|若存在|如果存在|如存在|可选|非空)\s*[）)]"
);
re!(
    CONDITIONAL,
    r"当|如果|若|为(?:True|true|False|false)|场景下.|情况下."
);
re!(
    PREDICATE,
    r"不|空指针|超过|超出|大于|小于|>|<|等于|非|广播|broadcast|越界|无效|错误|为0|为空|存在|没有"
);
re!(OR_JOIN, r"或者|或|、");
re!(
    ASPECT_ANY,
    r"(?i)数据类型|数据格式|格式|shape|维|元素|长度|size|空指针|值"
);
re!(
    EXPLANATORY,
    r"^(?:例如|如[^果]|即|其中|此时|也就是|超出了|表示)"
);
re!(NULL_WORD, r"空指针|nullptr|NULL|null");
re!(
    PRODUCT_UNSUPPORTED,
    r"不支持的产品|产品型号不支持|产品不支持|平台不支持|不在支持的(?:平台|产品)|芯片不支持|不支持(?:该|当前)(?:产品|平台|芯片)|(?:硬件平台|处理器|芯片|SocVersion)\s*(?:不是|不支持|不在)"
);
re!(
    ELEMENT_COUNT,
    r"(?i)((?:(?:depth|height|width|[dhw])\s*\*\s*)+(?:depth|height|width|[dhw]))\s*(?:>|大于|超过)\s*(?:max\s*)?int32"
);
re!(
    FRACTION,
    r"([A-Za-z_][A-Za-z0-9_]*)超过([A-Za-z_][A-Za-z0-9_]*)对应位置的(\d+)\s*/\s*(\d+)"
);
re!(BROADCAST, r"广播|broadcast");
re!(
    PADDING_BOUNDS,
    r"^([A-Za-z_][A-Za-z0-9_]*)的数值中存在小于0或者?大于([A-Za-z_][A-Za-z0-9_]*)(?:\s*/\s*(\d+))?的(?:值|数值)$"
);
re!(ONE_WAY, r"单向|到|\bto\b");
re!(HW_ONLY, r"仅支持\s*HW|HW维度");
re!(PROMOTION, r"推导|转换|互推|可转");
re!(EMPTY_TENSOR, r"空[Tt]ensor|空张量");
re!(
    NOT_EITHER_EMPTY,
    r"(?:不为|不是).+或(?:者)?\s*(?:空[Tt]ensor|空张量)"
);
// "out的shape不等于self根据dim拆分后的shape": a shape computed from another, not that shape.
re!(DERIVED_SHAPE, r"后的\s*(?:shape|形状)|推导|[Ii]nfer");
// "self的shape在C、H、W的某个轴为0": particular named axes, not every dim.
re!(
    NAMED_AXES,
    r"[NCDHWL]\s*[、,，和]\s*[NCDHWL]|除.{0,8}(?:以外|外)|[NCDHWL]\s*(?:轴|维)"
);
re!(DTYPE, r"数据类型|dtype|类型");
re!(FORMAT, r"(?i)数据格式|格式|format");
re!(
    DIM_VALUE,
    r"某(?:一|个)?维|任意一维|任一维|某(?:一|个)?轴|维度值|每一维|每个维度|各维度|shape中存在|存在.*?(?:小于|<)\s*=?\s*0|数值中存在"
);
re!(
    RANK,
    r"维数|维度|rank|\d+\s*维|shape\s*dim|的dim|dim数|\d\s*D\s*(?:/|[Tt]ensor)"
);
re!(WHEN_SUFFIX, r"(?:为|是)\s*[A-Za-z0-9_]+\s*时$");
re!(
    DIM_SIZE,
    r"维度上|对应维度|第.{1,3}(?:个)?维|最后一维|最后两维|倒数第.{1,2}维|[CHWDN]轴|(?i:channel)轴|通道|尾轴|非dim轴|轴长|整除|倍数|偶数"
);
re!(VALUE_WORD, r"值|取值|数值");
re!(
    AXIS_RANGE,
    r"越界|超出.*维度范围|不在.*维度范围|(?:超过|超出)\s*\[\s*-"
);
re!(
    AXIS_WORDS,
    r"维度数量|维度范围|维数|\.dim\(|dim最大值|的维度|维度|rank"
);
re!(
    SET_VALUES,
    r"\{\s*(-?\d+(?:\s*[,，、]\s*-?\d+)*)\s*\}|非\s*(-?\d+(?:\s*[,，、]\s*-?\d+)*)|(-?\d+(?:\s*/\s*-?\d+)+)|不在\s*(-?\d+(?:\s*(?:[,，、]|和|或)\s*-?\d+)+)\s*(?:这几个值|范围|之)?内?"
);
re!(SHAPE, r"(?:^|[^A-Za-z0-9_])(?i:shape)|形状|尺寸");
re!(LENGTH, r"长度|元素个数|元素数量|size");
re!(
    MISMATCH,
    r"不一致|不同|不相同|不匹配|不相等|不一样|不等$|不等于\s*(?:[^\d\s-]|$)|(?:需要|应|必须|要)(?:与|和).*(?:一致|相同)"
);
re!(
    OUT_OF_RANGE,
    r"不在|不支持|不满足|不符合|不是|不为|不等于|超过|超出|大于|小于|无效|非法|错误|越界|不合法|不正确|不对|>|<"
);
re!(
    RANK_NUMBERS,
    r"(不等于|不是|不为|不在|超过|超出|大于|小于|不支持|非|>|<)\s*([\[(]?\s*\d+\s*(?:维|D)?(?:\s*(?:或者|或|、|,|，|和|-|~|到|/)\s*\d+\s*(?:维|D)?)*\s*[\])]?)"
);
re!(LOWER_ZERO, r"小于\s*0|<\s*0|为负|不满足\s*(?:≥|>=)\s*0");
re!(
    NOT_POSITIVE,
    r"不大于\s*0|小于等于\s*0|<=\s*0|不为正|等于\s*0|为\s*0"
);
// A sign condition proper; "等于0"/"为0" alone excludes the one value 0, which for a dim size
// (never negative) is the same as "not positive" but for a value is not.
re!(SIGN_NOT_POSITIVE, r"不大于\s*0|小于等于\s*0|<=\s*0|不为正");
re!(
    INLINE_RANGE,
    r"[\[［]\s*(-?\d+)\s*[,，]\s*(-?\d+)\s*[\]］]|(-?\d+)\s*(?:~|～|到|至)\s*(-?\d+)"
);
re!(
    WHEN_PREFIX,
    r"^(?:当|若|如果)?\s*([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?(?:的值|的取值)?\s*(不为|不等于|!=|为|等于|==|=)\s*(true|false|True|False|TRUE|FALSE|-?\d+(?:\s*(?:或者|或|、)\s*-?\d+)*)\s*(?:时)?\s*(?:[，,]\s*(?:且|则)?|且)"
);
re!(
    NO_SUBJECT_ASPECT,
    r"^(?:传入)?(?:的)?(?:[Tt]ensor中|输入的?)?(?:数据类型|数据格式|shape|维度|任意维度|不支持空)"
);
re!(NUMEL, r"元素个数|元素数量");
re!(
    DIMS_EQUAL,
    r"^([A-Za-z_][A-Za-z0-9_]*)(?:和([A-Za-z_][A-Za-z0-9_]*))?的?(第\s*(?:[一二三四五六七八]|\d)|最后一|倒数第[一二三四])\s*(?:个)?维度?(?:值|的大小|的size|的值)?(?:(?:和|与|不等于)([A-Za-z_][A-Za-z0-9_]*)的?(第\s*(?:[一二三四五六七八]|\d)|最后一|倒数第[一二三四])\s*(?:个)?维度?(?:值|的大小|的size|的值)?)?(?:不(?:相等|一致|相同))?$"
);
// "counts、mean和invstd在第一维上的size不一致".
re!(
    DIMS_EQUAL_GROUP,
    r"^([A-Za-z_][A-Za-z0-9_]*(?:\s*[、，,和与及]\s*[A-Za-z_][A-Za-z0-9_]*)+)\s*在(第\s*(?:[一二三四五六七八]|\d)|最后一)\s*(?:个)?维度?上?的?(?:size|大小|长度)不(?:一致|相等|相同)$"
);
re!(REPEATED, r"重复");
re!(
    ZERO_RANK,
    r"(?:维度|维数|维度数|rank)\s*(?:等于|为|是|==|=)\s*0\s*(?:维)?$"
);
re!(
    MATMUL,
    r"^([A-Za-z_][A-Za-z0-9_]*)(?:和|与)([A-Za-z_][A-Za-z0-9_]*)(?:的shape)?不满足(?:矩阵)?相乘(?:条件|的条件|规则)$"
);
re!(
    TENSOR_COUNT,
    r"(?i)tensor(?:的)?(?:数量|个数)|列表长度|元素数量不一致"
);
re!(
    CONSTRAINT_WORDS,
    r"约束|参数说明|校验条件|限制要求|限制条件|要求"
);
re!(GREATER_THAN, r"(?:大于|>|超过)\s*(-?\d+)");
// "numLayers不满足>0": the negated bound is the requirement (> n, or ≥ n).
re!(
    NOT_AT_LEAST,
    r"不满足\s*(?:(>|大于)|(≥|>=|大于等于))\s*(-?\d+)"
);
re!(
    NOT_EQUAL_VALUES,
    r"(?:不为|不等于|不是)\s*(-?\d+(?:\s*(?:或者|或|、|,|，|和|及|与)\s*-?\d+)*)"
);

/// Rules for one condition, or why it can't be expressed.
pub fn recognize(op: &OpIr, condition: &str) -> Result<Vec<Rule>, String> {
    let text = text::normalize(condition);
    let text = TAIL.replace(&text, "").to_string();
    let (text, excluded) = match EXCLUDED.captures(&text) {
        Some(c) => (
            EXCLUDED.replace(&text, "").to_string(),
            text::products_in(&c[1]),
        ),
        None => (text.clone(), Vec::new()),
    };
    // "既不等于0、1，也不等于3" is one statement: the comma must not split it into a clause
    // without its subject.
    let text = ALSO_NOT.replace_all(&text, "也不等于").to_string();
    // "gradScaleOut（非空时）shape与scale不相等": the note goes, the name stays a word of its own.
    let text = strip_non_null_prefix(op, &OPTIONAL_NOTE.replace_all(&text, " "));
    if let Some(rules) = axis_bounds_rule(op, &text) {
        return Ok(rules);
    }
    let (text, when) = strip_when_prefix(op, &text);
    if text.is_empty() {
        return Err("the condition is empty".into());
    }
    let mut rules = Vec::new();
    let mut subjects: Vec<&Param> = Vec::new();
    let clauses: Vec<String> = text::split_clauses(&text, |s| PREDICATE.is_match(s))
        .into_iter()
        .flat_map(|c| split_alternatives(&c))
        .collect();
    // "selfRef是空tensor，index不是空tensor": one tensor empty while another is not is a joint
    // condition, not two separate ones.
    let empties: Vec<bool> = text
        .split(['，', ',', '；', ';'])
        .filter(|c| EMPTY_TENSOR.is_match(c))
        .map(|c| c.contains('不') || c.contains('非'))
        .collect();
    if empties.contains(&true) && empties.contains(&false) {
        return Err(format!(
            "a joint emptiness condition on several tensors (“{text}”) is not in the vocabulary"
        ));
    }
    for (i, clause) in clauses.iter().enumerate() {
        if EXPLANATORY.is_match(clause) {
            continue;
        }
        if WHEN_SUFFIX.is_match(clause) && i + 1 < clauses.len() {
            return Err(format!(
                "conditional on other arguments' values (“{clause}”), which the rule vocabulary cannot express"
            ));
        }
        let (clause_rules, used) = recognize_clause(op, clause, &subjects, when.is_some())?;
        subjects = used;
        rules.extend(qualify_by_products(clause, clause_rules));
    }
    if rules.is_empty() {
        return Err("no checkable statement recognized".into());
    }
    if let Some(when) = when {
        rules = rules.into_iter().map(|r| when.wrap(r)).collect();
    }
    if !excluded.is_empty() {
        let keep: Vec<String> = op
            .supported_products()
            .filter(|p| !excluded.iter().any(|e| e == p))
            .map(str::to_string)
            .collect();
        rules = rules
            .into_iter()
            .map(|rule| Rule::OnProducts {
                products: keep.clone(),
                rule: Box::new(rule),
            })
            .collect();
    }
    Ok(rules)
}

re!(DIM_OF, r"-\s*([A-Za-z_][A-Za-z0-9_]*)\.dim\b");

/// "dim超出了self的shape可选维度范围[-self.dim，self.dim-1]", "dim >= self.dim()或者dim <
/// -self.dim()", and the 0-dim variant "当self.dim()=0时，dim的取值不在[-1, 0]范围内；当self.dim()>0
/// 时，dim取值不在[-self.dim, self.dim()-1]范围内": all say the integer attribute indexes a dim of
/// the tensor (`AxisIn` treats a 0-dim tensor as 1-dim, as the 0-dim branch says).
fn axis_bounds_rule(op: &OpIr, text: &str) -> Option<Vec<Rule>> {
    let c = DIM_OF.captures(text)?;
    let tensor = text::resolve(op, &c[1]).filter(|p| p.role.is_tensor())?;
    let attrs: Vec<&Param> = text::mentions(op, text)
        .into_iter()
        .map(|m| m.param)
        .filter(|p| p.role == Role::Attribute && (p.ty.contains("int") || infer::is_int_list(p)))
        .collect();
    let [attr] = attrs.as_slice() else {
        return None;
    };
    Some(vec![Rule::AxisIn {
        param: attr.name.clone(),
        tensor: tensor.name.clone(),
    }])
}

/// A leading "当outputMask[1]为true，" / "当reduction的值为0时，": the rest holds only then.
struct When {
    param: String,
    index: Option<usize>,
    values: Vec<i64>,
    negate: bool,
}

impl When {
    fn wrap(&self, rule: Rule) -> Rule {
        Rule::When {
            param: self.param.clone(),
            index: self.index,
            values: self.values.clone(),
            negate: self.negate,
            rule: Box::new(rule),
        }
    }
}

fn strip_when_prefix(op: &OpIr, text: &str) -> (String, Option<When>) {
    let Some(c) = WHEN_PREFIX.captures(text) else {
        return (text.to_string(), None);
    };
    let Some(p) = text::resolve(op, &c[1]).filter(|p| p.role == Role::Attribute) else {
        return (text.to_string(), None);
    };
    let index = c.get(2).and_then(|m| m.as_str().parse().ok());
    let values = match c[4].to_ascii_lowercase().as_str() {
        "true" => vec![1],
        "false" => vec![0],
        nums => text::int_alternatives(nums),
    };
    let when = When {
        param: p.name.clone(),
        index,
        values,
        negate: c[3].starts_with('不') || &c[3] == "!=",
    };
    let rest = &text[c.get(0).map_or(0, |m| m.end())..];
    (rest.trim().to_string(), Some(when))
}

/// "当weightOptional非空时，其数据类型…": rules skip null arguments anyway, so the prefix goes and
/// "其" becomes the named parameters.
fn strip_non_null_prefix(op: &OpIr, text: &str) -> String {
    let Some(c) = NON_NULL_WHEN.captures(text) else {
        return text.to_string();
    };
    let subject = c.get(1).or(c.get(2)).map_or("", |m| m.as_str().trim());
    let rest = &text[c.get(0).map_or(0, |m| m.end())..];
    let rest = rest.strip_prefix('其').unwrap_or(rest);
    if !text::mentions(op, rest).is_empty() && !rest.starts_with("shape") {
        rest.to_string()
    } else {
        // "biasOptional不为空指针时，数据类型…不在支持的范围之内": the subject carries over.
        format!("{subject}的{rest}")
    }
}

/// "gamma不为1维或元素数量不等于…": two statements joined by 或 become two clauses; a 或 inside
/// a parameter list ("gradOutput、self或out的…") has no predicate on its left and stays.
fn split_alternatives(clause: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = clause;
    while let Some(m) = OR_JOIN.find(rest) {
        let (left, right) = (&rest[..m.start()], &rest[m.end()..]);
        let separate = PREDICATE.is_match(left)
            && PREDICATE.is_match(right)
            && ASPECT_ANY.is_match(right)
            && !BROADCAST.is_match(clause)
            && !PADDING_BOUNDS.is_match(clause);
        if separate {
            out.push(left.to_string());
            rest = right;
        } else {
            break;
        }
    }
    out.push(rest.to_string());
    out
}

/// "A2、A3的depth * height * width > max int32": a clause that names products holds there only.
fn qualify_by_products(clause: &str, rules: Vec<Rule>) -> Vec<Rule> {
    let products = text::products_in(clause);
    if products.is_empty() {
        return rules;
    }
    rules
        .into_iter()
        .map(|rule| match rule {
            Rule::ProductSupported { .. } => rule,
            other => Rule::OnProducts {
                products: products.clone(),
                rule: Box::new(other),
            },
        })
        .collect()
}

/// One clause → its rules and the parameters it is about (a clause naming none inherits the
/// previous clause's: "x的数据类型不在支持的范围之内，或shape不相互匹配").
fn recognize_clause<'a>(
    op: &'a OpIr,
    clause: &str,
    inherited: &[&'a Param],
    conditional: bool,
) -> Result<(Vec<Rule>, Vec<&'a Param>), String> {
    let none = |rules| Ok((rules, Vec::new()));
    if NULL_WORD.is_match(clause) {
        return none(null_rules(op, clause, conditional)?);
    }
    if PRODUCT_UNSUPPORTED.is_match(clause) {
        return none(vec![Rule::ProductSupported {
            products: op.supported_products().map(str::to_string).collect(),
        }]);
    }
    if let Some(c) = ELEMENT_COUNT.captures(clause) {
        return none(element_count_rule(op, c[1].matches('*').count() + 1)?);
    }
    if let Some(c) = FRACTION.captures(clause) {
        return none(fraction_rule(op, &c)?);
    }
    if let Some(c) = PADDING_BOUNDS.captures(clause) {
        // "padding的数值中存在小于0或者大于kernelSize/2的值": 0 ≤ padding ≤ kernelSize/2.
        let lhs = text::resolve(op, &c[1]).ok_or(format!("{} is not a parameter", &c[1]))?;
        let rhs = text::resolve(op, &c[2]).ok_or(format!("{} is not a parameter", &c[2]))?;
        let div: i64 = c
            .get(3)
            .map_or(Ok(1), |m| m.as_str().parse())
            .map_err(|_| "bad divisor")?;
        return none(vec![
            Rule::ListElemsInRange {
                param: lhs.name.clone(),
                min: Some(0),
                max: None,
            },
            Rule::ListElemsAtMostFraction {
                lhs: lhs.name.clone(),
                rhs: rhs.name.clone(),
                num: div.max(1),
                den: 1,
            },
        ]);
    }
    if let Some(rules) = dims_equal_rule(op, clause) {
        return none(rules);
    }
    if CONDITIONAL.is_match(&clause.replace("当前", "")) {
        return Err(format!(
            "conditional on other arguments' values (“{clause}”), which the rule vocabulary cannot express"
        ));
    }
    let unknown = text::unknown_names(op, clause);
    if !unknown.is_empty() {
        return Err(format!(
            "names {}, which {} not a parameter of the op",
            unknown.join(", "),
            if unknown.len() == 1 { "is" } else { "are" }
        ));
    }
    let mentions = text::mentions(op, clause);
    let mut subjects: Vec<&Param> = if mentions.is_empty() {
        group_subjects(op, clause)
    } else {
        mentions.iter().map(|m| m.param).collect()
    };
    if subjects.is_empty() {
        subjects = inherited.to_vec();
    }
    if subjects.is_empty() && NO_SUBJECT_ASPECT.is_match(clause) {
        // "数据类型不在支持的范围之内", "不支持空tensor场景": a statement about the op's tensors.
        subjects = text::io_tensors(op);
    }
    if subjects.is_empty() {
        return Err(format!("names no parameter of the op (“{clause}”)"));
    }
    let rules = if BROADCAST.is_match(clause) {
        broadcast_rules(&subjects, clause)?
    } else if PROMOTION.is_match(clause) {
        promotion_rules(op, clause, &subjects)?
    } else if clause.contains("非连续") || clause.contains("不连续") {
        tensor_rules(&subjects, |p| Rule::Contiguous { param: p })
    } else if clause.contains("连续性") {
        // "x、weight的连续性不符合要求": the tensors whose table rejects non-contiguous input.
        let strict: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.non_contiguous == Some(false))
            .collect();
        if strict.is_empty() {
            return Err("every named tensor accepts non-contiguous input per its table".into());
        }
        tensor_rules(&strict, |p| Rule::Contiguous { param: p })
    } else if EMPTY_TENSOR.is_match(clause) {
        if NOT_EITHER_EMPTY.is_match(clause) {
            // "repeats不为1D tensor或空tensor": the empty tensor is one of the allowed shapes.
            return Err(format!(
                "an empty tensor is one of the shapes “{clause}” allows, next to one the vocabulary cannot say alone"
            ));
        }
        if clause.contains("同时") {
            return Err(
                "a joint emptiness condition on several tensors is not in the vocabulary".into(),
            );
        }
        tensor_rules(&subjects, |p| Rule::NotEmpty { param: p })
    } else if REPEATED.is_match(clause) {
        let lists: Vec<Rule> = subjects
            .iter()
            .filter(|p| infer::is_int_list(p))
            .map(|p| Rule::ListUnique {
                param: p.name.clone(),
            })
            .collect();
        if lists.is_empty() {
            return Err(format!(
                "a repetition condition on non-list parameters (“{clause}”)"
            ));
        }
        lists
    } else if TENSOR_COUNT.is_match(clause) && MISMATCH.is_match(clause) {
        list_len_same(&subjects)?
    } else {
        aspect_rules(op, clause, &subjects)?
    };
    Ok((rules, subjects))
}

re!(CAST_TO, r"(?:转换为|转换成|转为|转成)");
re!(
    CAST_FROM_ABLE,
    r"^(?:参数|输入|输出)?\s*([A-Za-z_][A-Za-z0-9_]*)的数据类型不是(.+)可转换的"
);

/// "self和other无法做数据类型推导" → promotable; "推导出的数据类型无法转换为out的类型",
/// "self与out的数据类型不一致且无法转换", "out的数据类型不是self可转换的" → castable.
fn promotion_rules(op: &OpIr, clause: &str, subjects: &[&Param]) -> Result<Vec<Rule>, String> {
    if SHAPE.is_match(clause) || clause.contains("不在支持的范围") || clause.contains("格式")
    {
        return Err(
            "shape inference and the promoted dtype's range are not in the vocabulary".into(),
        );
    }
    if subjects.iter().any(|p| !p.role.is_tensor()) {
        return Err("promotion involving scalars or attributes is not in the vocabulary".into());
    }
    let casting = CAST_TO.is_match(clause)
        || clause.contains("无法转换")
        || clause.contains("可转换")
        || clause.contains("互转换");
    if !casting {
        if subjects.len() < 2 {
            return Err("a promotion condition that names fewer than two tensors".into());
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
    } else {
        // "self与out的数据类型不一致且无法转换": the last one named is the destination.
        mentions.last().map(|m| m.param)
    };
    let Some(to) = to.filter(|p| p.role.is_tensor()) else {
        return Err("a cast to a fixed dtype or to a non-tensor is not in the vocabulary".into());
    };
    let mut from: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.name != to.name)
        .collect();
    if from.is_empty() {
        // "推导出的数据类型无法转换为selfRef的类型": every input takes part in the promotion,
        // an in-place destination included.
        // Quantization parameters (a UINT64 deqScale among INT8 data) share no dtype with the
        // data and take no part in its promotion.
        from = dtype_kin(&text::input_tensors(op));
    }
    if from.is_empty() {
        return Err("a cast condition without a source tensor".into());
    }
    Ok(vec![Rule::DtypeCastable {
        from: names(&from),
        to: to.name.clone(),
    }])
}

/// "batch1的最后一维和batch2的倒数第二维不相等", "batch1和batch2的第一维度不相等".
fn dims_equal_rule(op: &OpIr, clause: &str) -> Option<Vec<Rule>> {
    if let Some(c) = MATMUL.captures(clause) {
        // "mat1和mat2不满足相乘条件": the inner dims of a matrix product agree.
        let a = text::resolve(op, &c[1]).filter(|p| p.role.is_tensor())?;
        let b = text::resolve(op, &c[2]).filter(|p| p.role.is_tensor())?;
        return Some(vec![Rule::DimsEqual {
            lhs: a.name.clone(),
            lhs_dim: -1,
            rhs: b.name.clone(),
            rhs_dim: -2,
        }]);
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

/// "x1、x2中的Tensor数量不一致": tensor lists of one length.
fn list_len_same(subjects: &[&Param]) -> Result<Vec<Rule>, String> {
    let lists: Vec<String> = subjects
        .iter()
        .filter(|p| matches!(p.role, Role::InputTensorList | Role::OutputTensorList))
        .map(|p| p.name.clone())
        .collect();
    if lists.len() < 2 {
        return Err("a tensor-count equality that names fewer than two tensor lists".into());
    }
    Ok(vec![Rule::ListLenSame { params: lists }])
}

re!(
    ASPECT_START,
    r"的|数据类型|数据格式|shape|维|格式|dtype|format|是|为|不"
);
re!(
    ALL_TENSORS,
    r"输入输出|输入和输出|输入、输出|输入与输出|所有[Tt]ensor|全部[Tt]ensor|非空[Tt]ensor|^(?:传入的)?(?:参数|[Tt]ensor)$"
);
re!(
    INPUTS,
    r"计算输入|输入张量|输入[Tt]ensor|各输入|全部输入|所有输入|^(?:传入的)?输入"
);
re!(OUTPUTS, r"输出");

/// "输入输出的shape不是4维或者5维": group words stand for the op's tensors.
fn group_subjects<'a>(op: &'a OpIr, clause: &str) -> Vec<&'a Param> {
    let clause = clause
        .trim_start_matches("传入的")
        .trim_start_matches("传入");
    let head = match ASPECT_START.find(clause) {
        Some(m) => &clause[..m.start()],
        None => clause,
    };
    if ALL_TENSORS.is_match(clause) || ALL_TENSORS.is_match(head) {
        text::io_tensors(op)
    } else if INPUTS.is_match(head) {
        text::input_tensors(op)
    } else if OUTPUTS.is_match(head) {
        text::output_tensors(op)
    } else {
        Vec::new()
    }
}

re!(
    NULL_ALL,
    r"必选|非可选|指针类型|入参|^(?:传入的)?(?:参数|[Tt]ensor|[Tt]ensor或[Tt]ensorList|输入参数)(?:是|为)"
);

/// `conditional`: the clause holds under a `When`, so optional parameters count too
/// ("当outputMask[0]为true，gradInput是空指针").
fn null_rules(op: &OpIr, clause: &str, conditional: bool) -> Result<Vec<Rule>, String> {
    if NULL_ALL.is_match(clause) {
        let params: Vec<String> = op
            .params
            .iter()
            .filter(|p| text::is_pointer(p) && !p.optional)
            .map(|p| p.name.clone())
            .collect();
        return non_empty_null(params, clause);
    }
    if CONDITIONAL.is_match(&clause.replace("当前", "")) || clause.contains('且') {
        return Err(format!(
            "a null check conditional on other arguments (“{clause}”) is not in the vocabulary"
        ));
    }
    let mentions = text::mentions(op, clause);
    let subjects: Vec<&Param> = if mentions.is_empty() {
        group_subjects(op, clause)
    } else {
        mentions.iter().map(|m| m.param).collect()
    };
    let params = subjects
        .iter()
        .filter(|p| text::is_pointer(p) && (conditional || !p.optional))
        .map(|p| p.name.clone())
        .collect();
    non_empty_null(params, clause)
}

fn non_empty_null(params: Vec<String>, clause: &str) -> Result<Vec<Rule>, String> {
    if params.is_empty() {
        Err(format!(
            "names no required pointer parameter (“{clause}”): optional ones may be null"
        ))
    } else {
        Ok(vec![Rule::NotNull { params }])
    }
}

/// The D*H*W limit applies to the forward input: `self` when the op has it, else its first input.
fn element_count_rule(op: &OpIr, dims: usize) -> Result<Vec<Rule>, String> {
    let inputs = text::input_tensors(op);
    let param = inputs
        .iter()
        .find(|p| p.name == "self")
        .or(inputs.first())
        .ok_or("the op has no input tensor for the element-count limit")?;
    Ok(vec![Rule::ElementCountMax {
        param: param.name.clone(),
        dims,
        max: i32::MAX as i64,
    }])
}

fn fraction_rule(op: &OpIr, c: &regex::Captures) -> Result<Vec<Rule>, String> {
    let lhs = text::resolve(op, &c[1]).ok_or(format!("{} is not a parameter", &c[1]))?;
    let rhs = text::resolve(op, &c[2]).ok_or(format!("{} is not a parameter", &c[2]))?;
    let (a, b): (i64, i64) = (
        c[3].parse().map_err(|_| "bad fraction")?,
        c[4].parse().map_err(|_| "bad fraction")?,
    );
    if a <= 0 || b <= 0 {
        return Err("the fraction is not positive".into());
    }
    // lhs ≤ rhs · a/b  ⇔  b·lhs ≤ a·rhs
    Ok(vec![Rule::ListElemsAtMostFraction {
        lhs: lhs.name.clone(),
        rhs: rhs.name.clone(),
        num: b,
        den: a,
    }])
}

/// "A的shape不满足单向广播B的shape": every tensor but the last broadcasts to the last;
/// without a direction the tensors broadcast together.
fn broadcast_rules(subjects: &[&Param], clause: &str) -> Result<Vec<Rule>, String> {
    let tensors: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role.is_tensor())
        .collect();
    if tensors.len() < 2 {
        return Err("a broadcast condition that names fewer than two tensors".into());
    }
    if !ONE_WAY.is_match(clause) {
        return Ok(vec![Rule::BroadcastTogether {
            params: names(&tensors),
        }]);
    }
    let Some((to, from)) = tensors.split_last() else {
        return Err("a broadcast condition that names no tensor".into());
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

fn tensor_rules(subjects: &[&Param], make: impl Fn(String) -> Rule) -> Vec<Rule> {
    subjects
        .iter()
        .filter(|p| p.role.is_tensor())
        .map(|p| make(p.name.clone()))
        .collect()
}

fn names(ps: &[&Param]) -> Vec<String> {
    ps.iter().map(|p| p.name.clone()).collect()
}

/// Subject + aspect + relation: the bulk of documented conditions.
fn aspect_rules(op: &OpIr, clause: &str, subjects: &[&Param]) -> Result<Vec<Rule>, String> {
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
        return Err("a condition on all dims but some is not in the vocabulary".into());
    }
    // "shape与参数说明中不一致": not equal to each other but to what the descriptions state.
    let mismatch = MISMATCH.is_match(clause) && !CONSTRAINT_WORDS.is_match(clause);
    let dim_value = DIM_VALUE.is_match(clause);
    let about_values = VALUE_WORD.is_match(clause) && !dim_value;
    if about_values && !DTYPE.is_match(clause) && !FORMAT.is_match(clause) {
        if attrs.is_empty() {
            return Err(format!(
                "a condition on tensor data (“{clause}”), which the first phase does not see"
            ));
        }
        let tensors: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.role.is_tensor())
            .collect();
        if let (Some(tensor), true) = (tensors.first(), is_axis_statement(clause, &attrs)) {
            // "dim的值不在[-self的维度数量, self的维度数量-1]之间": a dim index of the tensor.
            return Ok(attrs
                .iter()
                .map(|a| Rule::AxisIn {
                    param: a.name.clone(),
                    tensor: tensor.name.clone(),
                })
                .collect());
        }
        return value_rules(op, clause, &attrs);
    }
    if let (Some(attr), true) = (
        attrs.first(),
        AXIS_RANGE.is_match(clause) && is_axis_statement(clause, &attrs),
    ) {
        // "dim越界", "dim超出输入self的维度范围": a dim index of the (first input) tensor.
        let tensor = tensors
            .first()
            .copied()
            .or_else(|| text::input_tensors(op).into_iter().next());
        if let Some(tensor) = tensor {
            return Ok(vec![Rule::AxisIn {
                param: attr.name.clone(),
                tensor: tensor.name.clone(),
            }]);
        }
    }
    let mut rules = Vec::new();
    let mut any_aspect = false;

    if DTYPE.is_match(clause) {
        any_aspect = true;
        rules.extend(dtype_rules(op, &tensors, mismatch)?);
    }
    if FORMAT.is_match(clause) {
        any_aspect = true;
        let pinned = !DTYPE.is_match(clause) || clause.contains("私有");
        rules.extend(format_rules(&tensors, mismatch, pinned)?);
    }
    if dim_value {
        any_aspect = true;
        rules.extend(dim_value_rules(clause, subjects)?);
    } else if DIM_SIZE.is_match(clause)
        && !(SHAPE.is_match(clause) && mismatch && attrs.iter().any(|p| infer::is_int_list(p)))
    {
        return Err(format!(
            "a condition on the size of particular dims (“{clause}”) is not in the vocabulary"
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
    } else if LENGTH.is_match(clause) && !dim_value {
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
            return Err(format!(
                "no aspect (dtype, format, shape, value) recognized in “{clause}”"
            ));
        }
        rules.extend(value_rules(op, clause, &attrs)?);
    }
    if rules.is_empty() {
        return Err(format!(
            "the doc states no checkable constraint for {} behind “{clause}”",
            names(subjects).join(", ")
        ));
    }
    Ok(rules)
}

fn dtype_rules(op: &OpIr, tensors: &[&Param], mismatch: bool) -> Result<Vec<Rule>, String> {
    if mismatch {
        let kin = dtype_kin(tensors);
        return same_rule(&kin, "dtype", |params| Rule::DtypeSame { params });
    }
    Ok(tensors
        .iter()
        .filter_map(|p| infer::dtype_rule(op, p))
        .collect())
}

/// `pinned`: the clause is about formats alone ("x的数据格式不在支持的范围之内") or names private
/// formats. ND is the format of any N-dimensional layout, so a tensor documented as ND only is
/// not pinned to it by the boilerplate "数据类型和数据格式不在支持的范围之内": CANN's elementwise
/// ops take NC1HWC0 or FRACTAL_NZ tensors there.
fn format_rules(tensors: &[&Param], mismatch: bool, pinned: bool) -> Result<Vec<Rule>, String> {
    if mismatch {
        return same_rule(tensors, "format", |params| Rule::FormatSame { params });
    }
    Ok(tensors
        .iter()
        .filter(|p| !p.formats.is_empty())
        .filter(|p| pinned || p.formats != [aclnn_runtime::Format::Nd])
        .map(|p| Rule::FormatIn {
            param: p.name.clone(),
            allowed: p.formats.clone(),
        })
        .collect())
}

/// The tensors a "数据类型不一致" over `tensors` can mean: a tensor whose documented dtypes share
/// none with the others' (an INT32/INT64 index among FLOAT tensors, in "输入输出数据类型不一致")
/// can never have their dtype, so it is not one of them. The reference is the tensor whose
/// dtypes meet the most others'; tensors with no documented dtypes stay.
fn dtype_kin<'a>(tensors: &[&'a Param]) -> Vec<&'a Param> {
    use std::collections::BTreeSet;
    let sets: Vec<BTreeSet<aclnn_runtime::DType>> = tensors
        .iter()
        .map(|p| p.dtypes.values().flatten().copied().collect())
        .collect();
    let meets =
        |a: &BTreeSet<_>, b: &BTreeSet<_>| a.is_empty() || b.is_empty() || !a.is_disjoint(b);
    let Some(reference) = (0..sets.len()).max_by_key(|&i| {
        (
            sets.iter().filter(|s| meets(&sets[i], s)).count(),
            usize::MAX - i,
        )
    }) else {
        return Vec::new();
    };
    tensors
        .iter()
        .zip(&sets)
        .filter(|(_, s)| meets(&sets[reference], s))
        .map(|(p, _)| *p)
        .collect()
}

fn same_rule(
    tensors: &[&Param],
    what: &str,
    make: impl Fn(Vec<String>) -> Rule,
) -> Result<Vec<Rule>, String> {
    let lists = tensors
        .iter()
        .any(|p| matches!(p.role, Role::InputTensorList | Role::OutputTensorList));
    if tensors.len() < 2 && !lists {
        return Err(format!(
            "a {what} equality that names fewer than two tensors"
        ));
    }
    Ok(vec![make(names(tensors))])
}

fn dim_value_rules(clause: &str, subjects: &[&Param]) -> Result<Vec<Rule>, String> {
    if NAMED_AXES.is_match(clause) {
        return Err(format!(
            "a condition on some named axes (“{clause}”): the vocabulary bounds every dim"
        ));
    }
    if !LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause) {
        return Err(format!(
            "a condition on dim sizes other than their sign (“{clause}”)"
        ));
    }
    let allow_zero = LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause);
    Ok(subjects
        .iter()
        .filter_map(|p| {
            if p.role.is_tensor() {
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
const MAX_RANK: usize = 8;

fn rank_rules(clause: &str, subjects: &[&Param], mismatch: bool) -> Result<Vec<Rule>, String> {
    let tensors: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| p.role.is_tensor())
        .collect();
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
                .filter(|p| p.ty.contains("Array"))
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
fn stated_rank(clause: &str) -> Result<Option<(usize, usize)>, String> {
    if ZERO_RANK.is_match(clause) {
        // "self的维度等于0": a 0-d tensor is the error.
        return Ok(Some((1, MAX_RANK)));
    }
    let Some(c) = RANK_NUMBERS.captures(clause) else {
        return Ok(None);
    };
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
        _ => {
            let ranged = c[2].contains(['-', '~', '到', '[']);
            if !ranged && (lo..=hi).any(|n| !nums.contains(&n)) {
                return Err(format!(
                    "the rank set {nums:?} has gaps; RankIn holds a range only"
                ));
            }
            (lo, hi)
        }
    }))
}

fn shape_rules(
    op: &OpIr,
    clause: &str,
    tensors: &[&Param],
    mismatch: bool,
) -> Result<Vec<Rule>, String> {
    if mismatch {
        if EXCEPT.is_match(clause) {
            return Err("a shape equality except some dims is not in the vocabulary".into());
        }
        if DERIVED_SHAPE.is_match(clause) {
            return Err(format!(
                "a shape derived from another (“{clause}”) is not in the vocabulary"
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
        return same_rule(tensors, "shape", |params| Rule::ShapeSame { params });
    }
    if !OUT_OF_RANGE.is_match(clause) && !MISMATCH.is_match(clause) {
        return Err(format!("no shape relation recognized in “{clause}”"));
    }
    if !CONSTRAINT_WORDS.is_match(clause) {
        // "shape不正确", "shape不合法", "shape不在支持的范围之内": the doc does not say which
        // shapes are wrong; guessing from the parameter rows rejects valid calls.
        return Err(format!(
            "a shape condition that names no relation or constraint (“{clause}”)"
        ));
    }
    // "x与out的shape不满足约束": the shape constraints the parameter descriptions state.
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
                Rule::ShapeSame { params } | Rule::RankSame { params } => {
                    params.iter().all(|n| subject_names.contains(n))
                }
                Rule::Broadcastable { to, .. } => subject_names.contains(to),
                _ => false,
            };
            if inside {
                rules.push(rule);
            }
        }
    }
    Ok(rules)
}

fn length_rules(clause: &str, subjects: &[&Param]) -> Result<Vec<Rule>, String> {
    let lists: Vec<&Param> = subjects
        .iter()
        .copied()
        .filter(|p| {
            p.ty.contains("Array")
                || matches!(p.role, Role::InputTensorList | Role::OutputTensorList)
        })
        .collect();
    if lists.is_empty() {
        let tensors: Vec<&Param> = subjects
            .iter()
            .copied()
            .filter(|p| p.role.is_tensor())
            .collect();
        if !tensors.is_empty() && !clause.contains("维") && !clause.contains("轴") {
            // "scale或zeroPoint的size大小不是1": the tensor's element count.
            return numel_rules(clause, &tensors);
        }
        return Err(format!(
            "a length condition on non-list parameters (“{clause}”)"
        ));
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

re!(EXCEPT, r"除.*(?:外|以外)|除了");
re!(ALSO_NOT, r"[，,]\s*也不等于");
re!(
    ATTR_RELATION,
    r"^(?:参数|属性)?([A-Za-z_][A-Za-z0-9_]*)(?:的值)?\s*(大于|>|小于|<)\s*([A-Za-z_][A-Za-z0-9_]*)(?:的值)?$"
);
re!(AXIS_BOUNDS, r"范围|越界|超出|超过|绝对值|之间");
re!(NOT_AXIS, r"shape|size|整除|不相等|不一致|除了|除.*外|元素");

/// "dim的值不在[-self的维度数量, self的维度数量-1]之间": the clause is about the attribute (named
/// first) staying within the tensor's dims, and about nothing else.
fn is_axis_statement(clause: &str, attrs: &[&Param]) -> bool {
    let first_ident = text::IDENT.find(clause).map(|m| m.as_str());
    attrs.len() == 1
        && first_ident == Some(attrs[0].name.as_str())
        && (AXIS_WORDS.is_match(clause) || clause.contains("越界"))
        && AXIS_BOUNDS.is_match(clause)
        && !NOT_AXIS.is_match(clause)
}

fn float_range(p: &Param, clause: &str) -> Result<Rule, String> {
    let range = |min, max| Rule::IntInRange {
        param: p.name.clone(),
        min,
        max,
    };
    if let Some(c) = INLINE_RANGE.captures(clause) {
        let bound =
            |i: usize, j: usize| c.get(i).or(c.get(j)).and_then(|m| m.as_str().parse().ok());
        return Ok(range(bound(1, 3), bound(2, 4)));
    }
    // "不大于0" (> 0 strictly) has no integer bound for a float: not checkable.
    if LOWER_ZERO.is_match(clause) && !NOT_POSITIVE.is_match(clause) {
        return Ok(range(Some(0), None));
    }
    Err(format!(
        "{} is a floating attribute; only its sign or integer bounds are checkable",
        p.name
    ))
}

/// "alpha元素个数不为1": the tensor's element count is one of the stated values.
fn numel_rules(clause: &str, tensors: &[&Param]) -> Result<Vec<Rule>, String> {
    let Some(c) = NOT_EQUAL_VALUES.captures(clause) else {
        return Err(format!("no element count stated in “{clause}”"));
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

/// "cubeMathType不在支持范围内", "k、n值不在[1, 65535]范围内", "quantMode的取值不为0".
fn value_rules(op: &OpIr, clause: &str, attrs: &[&Param]) -> Result<Vec<Rule>, String> {
    if let Some(c) = ATTR_RELATION.captures(clause) {
        // "quantMin大于quantMax" → quantMin ≤ quantMax; "end小于start" → start ≤ end.
        let find = |w: &str| attrs.iter().find(|p| p.name == w).map(|p| p.name.clone());
        if let (Some(a), Some(b)) = (find(&c[1]), find(&c[3])) {
            let (lhs, rhs) = if c[2].contains('大') || &c[2] == ">" {
                (a, b)
            } else {
                (b, a)
            };
            return Ok(vec![Rule::IntAtMost { lhs, rhs }]);
        }
    }
    if attrs.len() >= 2 && clause.contains("小于") && !INLINE_RANGE.is_match(clause) {
        let lt = clause.find("小于").unwrap_or(0);
        if attrs
            .iter()
            .any(|p| clause.find(&p.name).is_some_and(|i| i > lt))
        {
            return Err(
                "a relation between two attributes' values is not in the vocabulary".into(),
            );
        }
    }
    if clause.contains('*') || clause.contains("乘积") {
        return Err("a product of attribute values is not in the vocabulary".into());
    }
    let mut rules = Vec::new();
    for p in attrs {
        let float_like = p.ty.contains("float") || p.ty.contains("double");
        if float_like {
            // A float's sign or bounds ("lambda小于0", "clampLimit不满足≥0") are range rules the
            // interpreter checks on the number; value sets of floats are not.
            rules.push(float_range(p, clause)?);
            continue;
        }
        if p.ty.contains("char") {
            return Err(format!("{} is not an integer attribute", p.name));
        }
        if p.ty.trim() == "bool" {
            // "isResult=true 且 alpha<0": a bool in a value condition makes it conditional.
            return Err(format!(
                "{} is a bool: a value condition naming it is conditional on it",
                p.name
            ));
        }
        let range = |min, max| {
            if infer::is_int_list(p) {
                Rule::ListElemsInRange {
                    param: p.name.clone(),
                    min,
                    max,
                }
            } else {
                Rule::IntInRange {
                    param: p.name.clone(),
                    min,
                    max,
                }
            }
        };
        if let Some(c) = INLINE_RANGE.captures(clause) {
            let bound =
                |i: usize, j: usize| c.get(i).or(c.get(j)).and_then(|m| m.as_str().parse().ok());
            let (lo, hi) = (bound(1, 3), bound(2, 4));
            rules.push(range(lo, hi));
        } else if let Some(c) = NOT_EQUAL_VALUES
            .captures(clause)
            .filter(|_| !clause.contains("不大于") && !clause.contains("小于等于"))
        {
            // "threshold 不等于 0": the value must be one of these ("等于0" inside "不等于0"
            // is not a sign condition).
            rules.push(Rule::IntIn {
                param: p.name.clone(),
                values: text::int_alternatives(&c[1]),
            });
        } else if SIGN_NOT_POSITIVE.is_match(clause) {
            rules.push(range(Some(1), None));
        } else if NOT_POSITIVE.is_match(clause) {
            // "alpha等于0": 0.5 and -1 are fine; no rule of the vocabulary says "≠ 0".
            return Err(format!(
                "{} must not be 0: a single excluded value, which no rule expresses",
                p.name
            ));
        } else if let Some(c) = NOT_AT_LEAST.captures(clause) {
            let n: Option<i64> = c[3].parse().ok();
            rules.push(range(n.map(|n| n + i64::from(c.get(1).is_some())), None));
        } else if LOWER_ZERO.is_match(clause) {
            rules.push(range(Some(0), None));
        } else if let Some(c) = GREATER_THAN.captures(clause) {
            rules.push(range(None, c[1].parse().ok()));
        } else if let Some(c) = SET_VALUES.captures(clause) {
            let list = c
                .get(1)
                .or(c.get(2))
                .or(c.get(3))
                .or(c.get(4))
                .map_or("", |m| m.as_str());
            rules.push(Rule::IntIn {
                param: p.name.clone(),
                values: text::int_alternatives(list),
            });
        } else if let Some(c) = NOT_EQUAL_VALUES.captures(clause) {
            rules.push(Rule::IntIn {
                param: p.name.clone(),
                values: text::int_alternatives(&c[1]),
            });
        } else if OUT_OF_RANGE.is_match(clause) {
            rules.extend(infer::attribute_rules(p));
            rules.extend(infer::axis_rule(op, p));
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Rank;
    use aclnn_runtime::{DType, Format};
    use std::collections::BTreeMap;

    fn tensor(name: &str, role: Role) -> Param {
        Param {
            name: name.into(),
            role,
            ty: if role == Role::InputTensor {
                "const aclTensor*"
            } else {
                "aclTensor*"
            }
            .into(),
            dtypes: [(
                "ascend910b".to_string(),
                vec![DType::BFloat16, DType::Float16, DType::Float32],
            )]
            .into_iter()
            .collect(),
            formats: vec![Format::Ncdhw, Format::Nd],
            rank: Some(Rank { min: 4, max: 5 }),
            ..Default::default()
        }
    }

    fn attr(name: &str, ty: &str, constraints: &[&str]) -> Param {
        Param {
            name: name.into(),
            role: Role::Attribute,
            ty: ty.into(),
            constraints: constraints.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    /// The shape of seed 000 (AdaptiveAvgPool3dBackward).
    fn pool3d() -> OpIr {
        OpIr {
            op: "AdaptiveAvgPool3dBackward".into(),
            products: [
                ("ascend910b".to_string(), true),
                ("ascend910".to_string(), false),
            ]
            .into_iter()
            .collect(),
            params: vec![
                tensor("gradOutput", Role::InputTensor),
                tensor("self", Role::InputTensor),
                tensor("out", Role::OutputTensor),
            ],
            ..Default::default()
        }
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
        OpIr {
            op: "AvgPool2dBackward".into(),
            products: [
                ("ascend910b".to_string(), true),
                ("ascend910_93".to_string(), true),
                ("ascend910".to_string(), true),
                ("ascend950".to_string(), true),
            ]
            .into_iter()
            .collect(),
            params: vec![
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
            ..Default::default()
        }
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn null_list_with_or() {
        let rules = recognize(&pool3d(), "1. 传入的gradOutput、self或out是空指针。").unwrap();
        assert_eq!(
            rules,
            vec![Rule::NotNull {
                params: s(&["gradOutput", "self", "out"])
            }]
        );
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
            recognize(&op, "2. gradOutput、self和out数据类型不一致。").unwrap(),
            vec![Rule::DtypeSame {
                params: s(&["gradOutput", "self", "out"])
            }]
        );
        assert_eq!(
            recognize(&op, "3. gradOutput、self和out的维数不等于4或5。").unwrap()[2],
            Rule::RankIn {
                param: "out".into(),
                min: 4,
                max: 5
            }
        );
        assert_eq!(
            recognize(&op, "4. gradOutput、self和out的shape不匹配。").unwrap(),
            vec![Rule::ShapeSame {
                params: s(&["gradOutput", "self", "out"])
            }]
        );
        assert_eq!(
            recognize(&op, "5. gradOutput或self的shape的某一维不大于0。").unwrap(),
            vec![
                Rule::DimsPositive {
                    param: "gradOutput".into(),
                    allow_zero: false
                },
                Rule::DimsPositive {
                    param: "self".into(),
                    allow_zero: false
                },
            ]
        );
        assert_eq!(
            recognize(&op, "6. gradOutput和self的数据格式不一致。").unwrap(),
            vec![Rule::FormatSame {
                params: s(&["gradOutput", "self"])
            }]
        );
        assert_eq!(
            recognize(
                &op,
                "7. gradOutput的shape不满足单向广播self的shape(仅支持HW维度，NC维度需要保持一致)"
            )
            .unwrap(),
            vec![Rule::Broadcastable {
                from: "gradOutput".into(),
                to: "self".into(),
                dims: Some(vec![-2, -1])
            }]
        );
    }

    #[test]
    fn seed_001_rows() {
        let mut op = pool3d();
        op.params = vec![
            tensor("gradOutput", Role::InputTensor),
            tensor("self", Role::InputTensor),
            tensor("indices", Role::InputTensor),
            tensor("gradInput", Role::OutputTensor),
        ];
        assert_eq!(
            recognize(&op, "3. 输入输出的shape不是4维或者5维。")
                .unwrap()
                .len(),
            4
        );
        assert_eq!(
            recognize(
                &op,
                "4. gradOutput与indices的shape不一致，self和gradInput的shape不一致。"
            )
            .unwrap(),
            vec![
                Rule::ShapeSame {
                    params: s(&["gradOutput", "indices"])
                },
                Rule::ShapeSame {
                    params: s(&["self", "gradInput"])
                },
            ]
        );
        assert_eq!(
            recognize(
                &op,
                "5. depth * height * width > max int32，超出了indices的表达范围。"
            )
            .unwrap(),
            vec![Rule::ElementCountMax {
                param: "self".into(),
                dims: 3,
                max: i32::MAX as i64
            }]
        );
        assert_eq!(
            recognize(
                &op,
                "A2、A3的depth * height * width > max int32，超出了indices的表示范围。"
            )
            .unwrap(),
            vec![Rule::OnProducts {
                products: s(&["ascend910_93", "ascend910b"]),
                rule: Box::new(Rule::ElementCountMax {
                    param: "self".into(),
                    dims: 3,
                    max: i32::MAX as i64
                }),
            }]
        );
    }

    #[test]
    fn seed_003_rows() {
        let op = pool2d();
        assert_eq!(
            recognize(
                &op,
                "传入的gradOutput、self、kernelSize、padding或gradInput是空指针。"
            )
            .unwrap(),
            vec![Rule::NotNull {
                params: s(&["gradOutput", "self", "kernelSize", "padding", "gradInput"])
            }]
        );
        let rules = recognize(&op, "传入的self和gradInput的数据类型或数据格式不一致。").unwrap();
        assert_eq!(
            rules,
            vec![
                Rule::DtypeSame {
                    params: s(&["self", "gradInput"])
                },
                Rule::FormatSame {
                    params: s(&["self", "gradInput"])
                },
            ]
        );
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
        assert_eq!(
            recognize(&op, "传入的cubeMathType不在支持范围内。").unwrap(),
            vec![Rule::IntIn {
                param: "cubeMathType".into(),
                values: vec![0, 1, 2, 3]
            }]
        );
        assert_eq!(
            recognize(&op, "属性padding超过kernelSize对应位置的1/2,例如paddingH=2,kernelSizeH=2,paddingH>kernelSizeH*1/2。").unwrap(),
            vec![Rule::ListElemsAtMostFraction { lhs: "padding".into(), rhs: "kernelSize".into(), num: 2, den: 1 }]
        );
    }

    #[test]
    fn product_exclusion_and_product_ranges() {
        let op = pool2d();
        let rules = recognize(
            &op,
            "传入的divisorOverride不在支持范围内，但对Ascend 950PR/Ascend 950DT无此校验",
        )
        .unwrap();
        assert_eq!(
            rules,
            vec![Rule::OnProducts {
                products: s(&["ascend910", "ascend910_93", "ascend910b"]),
                rule: Box::new(Rule::OnProducts {
                    products: s(&["ascend310p", "ascend910"]),
                    rule: Box::new(Rule::IntInRange {
                        param: "divisorOverride".into(),
                        min: Some(-255),
                        max: Some(255)
                    }),
                }),
            }]
        );
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
        assert!(why.contains("normalizedShape"), "{why}");
        assert!(recognize(&op, "gradOutput不满足broadcast关系。").is_err());
    }

    #[test]
    fn required_pointer_rule_covers_all_required() {
        let mut op = pool3d();
        op.params[2].optional = true;
        assert_eq!(
            recognize(
                &op,
                "如果传入参数是必选输入，输出或者必选属性，且是空指针，则返回161001。"
            )
            .unwrap(),
            vec![Rule::NotNull {
                params: s(&["gradOutput", "self"])
            }]
        );
    }

    #[test]
    fn when_prefix_makes_conditional_rules() {
        let mut op = pool3d();
        let mut mask = attr("outputMask", "const aclBoolArray*", &[]);
        mask.role = Role::Attribute;
        op.params.push(mask);
        op.params[2].optional = true;
        assert_eq!(
            recognize(&op, "当outputMask[0]为true，传入的out是空指针时。").unwrap(),
            vec![Rule::When {
                param: "outputMask".into(),
                index: Some(0),
                values: vec![1],
                negate: false,
                rule: Box::new(Rule::NotNull {
                    params: s(&["out"])
                }),
            }]
        );
        assert_eq!(
            recognize(&op, "outputMask[0]为True且out为空指针。").unwrap(),
            vec![Rule::When {
                param: "outputMask".into(),
                index: Some(0),
                values: vec![1],
                negate: false,
                rule: Box::new(Rule::NotNull {
                    params: s(&["out"])
                }),
            }]
        );
    }

    #[test]
    fn non_null_prefix_and_inherited_subjects() {
        let op = pool3d();
        assert_eq!(
            recognize(&op, "当out不为空且out的数据格式不在支持的范围之内。").unwrap(),
            vec![Rule::FormatIn {
                param: "out".into(),
                allowed: vec![Format::Ncdhw, Format::Nd]
            }]
        );
        assert_eq!(
            recognize(&op, "out（非空时）shape与self不相等。").unwrap(),
            vec![Rule::ShapeSame {
                params: s(&["out", "self"])
            }]
        );
        assert_eq!(
            recognize(&op, "当out非空时，其数据格式不在支持的范围之内。").unwrap(),
            vec![Rule::FormatIn {
                param: "out".into(),
                allowed: vec![Format::Ncdhw, Format::Nd]
            }]
        );
        let rules =
            recognize(&op, "self的数据类型不在支持的范围之内，或shape不一致。").unwrap_err();
        assert!(rules.contains("fewer than two"), "{rules}");
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
    fn statements_joined_by_a_pause_mark_and_value_sets() {
        let mut op = pool3d();
        op.params.push(tensor("selfRef", Role::InOutTensor));
        op.params.push(tensor("indices", Role::InputTensor));
        assert_eq!(
            recognize(&op, "selfRef的dim不为2、indices的dim超出8维。").unwrap(),
            vec![
                Rule::RankIn {
                    param: "selfRef".into(),
                    min: 2,
                    max: 2
                },
                Rule::RankIn {
                    param: "indices".into(),
                    min: 0,
                    max: 8
                },
            ]
        );
        op.params.push(attr("threshold", "const aclScalar*", &[]));
        assert_eq!(
            recognize(&op, "threshold 不等于 0。").unwrap(),
            vec![Rule::IntIn {
                param: "threshold".into(),
                values: vec![0]
            }]
        );
        // "等于0" excludes one value (0.5 and -1 pass): not a sign rule, so manual.
        assert!(recognize(&op, "threshold等于0。").is_err());
        assert_eq!(
            recognize(&op, "threshold小于等于0。").unwrap(),
            vec![Rule::IntInRange {
                param: "threshold".into(),
                min: Some(1),
                max: None
            }]
        );
        op.params.push(attr("isResult", "bool", &[]));
        op.params.push(attr("alpha", "float", &[]));
        // "且" joins the condition to what it conditions, as "，" does.
        assert_eq!(
            recognize(&op, "isResult=true 且 alpha<0").unwrap(),
            vec![Rule::When {
                param: "isResult".into(),
                index: None,
                values: vec![1],
                negate: false,
                rule: Box::new(Rule::IntInRange {
                    param: "alpha".into(),
                    min: Some(0),
                    max: None
                }),
            }]
        );
        assert_eq!(
            recognize(&op, "alpha小于0。").unwrap(),
            vec![Rule::IntInRange {
                param: "alpha".into(),
                min: Some(0),
                max: None
            }]
        );
    }

    #[test]
    fn negated_bounds_and_value_pairs() {
        let mut op = pool3d();
        op.params.push(attr("numLayers", "int64_t", &[]));
        op.params.push(attr("approximate", "int64_t", &[]));
        let r = |c: &str| recognize(&op, c).unwrap();
        let at_least = |min| {
            vec![Rule::IntInRange {
                param: "numLayers".into(),
                min: Some(min),
                max: None,
            }]
        };
        assert_eq!(r("numLayers不满足>0。"), at_least(1));
        assert_eq!(
            r("self不为0D/1D tensor。"),
            vec![Rule::RankIn {
                param: "self".into(),
                min: 0,
                max: 1
            }]
        );
        assert_eq!(
            r("self的维度等于0。"),
            vec![Rule::RankIn {
                param: "self".into(),
                min: 1,
                max: MAX_RANK
            }]
        );
        assert_eq!(
            r("approximate的取值不在0、1和2范围内。"),
            vec![Rule::IntIn {
                param: "approximate".into(),
                values: vec![0, 1, 2]
            }]
        );
        assert_eq!(r("numLayers不满足≥2。"), at_least(2));
        assert_eq!(
            r("参数approximate的取值范围不是0和1。"),
            vec![Rule::IntIn {
                param: "approximate".into(),
                values: vec![0, 1]
            }]
        );
    }

    #[test]
    fn neither_nor_lengths_and_axis_relations() {
        let mut op = pool3d();
        op.params
            .push(attr("kernelSize", "const aclIntArray*", &[]));
        op.params.push(attr("stride", "const aclIntArray*", &[]));
        assert_eq!(
            recognize(
                &op,
                "传入的kernelSize的长度既不等于1也不等于3，stride的长度既不等于0、1，也不等于3。"
            )
            .unwrap(),
            vec![
                Rule::ListLenIn {
                    param: "kernelSize".into(),
                    lens: vec![1, 3]
                },
                Rule::ListLenIn {
                    param: "stride".into(),
                    lens: vec![0, 1, 3]
                },
            ]
        );
        op.params.push(attr("dim", "int64_t", &[]));
        let axis = vec![Rule::AxisIn {
            param: "dim".into(),
            tensor: "self".into(),
        }];
        for text in [
            "当self.dim()=0时，dim的取值不在[-1, 0]范围内；当self.dim()>0时，dim取值不在[-self.dim, self.dim()-1]范围内。",
            "入参dim超出了self的shape可选维度范围[-self.dim，self.dim-1]。",
            "dim >= self.dim()或者dim < -self.dim()。",
        ] {
            assert_eq!(recognize(&op, text).unwrap(), axis, "{text}");
        }
        // A shape condition naming no relation is manual, not a guess from the parameter rows.
        assert!(recognize(&op, "gradOutput、self的shape不正确。").is_err());
        // ... but the dtype part of a condition that also names it is still checked.
        op.params[0]
            .dtypes
            .insert("ascend910b".into(), vec![aclnn_runtime::DType::Float32]);
        let both = recognize(&op, "gradOutput的数据类型和shape不在支持的范围之内。").unwrap();
        assert_eq!(
            both,
            recognize(&op, "gradOutput的数据类型不在支持的范围之内。").unwrap()
        );
        assert!(matches!(both[0], Rule::DtypeIn { .. }), "{both:?}");
        // A relation to one axis of a tensor is not a shape equality: manual, not a guess.
        assert!(recognize(&op, "gradOutput的shape与self的channel轴不一致。").is_err());
    }

    #[test]
    fn mutual_broadcast_and_tilde_ranges() {
        let mut op = pool3d();
        assert_eq!(
            recognize(&op, "gradOutput和self的shape不满足broadcast关系。").unwrap(),
            vec![Rule::BroadcastTogether {
                params: s(&["gradOutput", "self"])
            }]
        );
        op.params.push(attr("reduction", "int64_t", &[]));
        assert_eq!(
            recognize(&op, "reduction值不在0~2范围之内。").unwrap(),
            vec![Rule::IntInRange {
                param: "reduction".into(),
                min: Some(0),
                max: Some(2)
            }]
        );
        op.params.push(attr("stride", "const aclIntArray*", &[]));
        assert_eq!(
            recognize(&op, "stride的长度不等于0，1或2。").unwrap(),
            vec![Rule::ListLenIn {
                param: "stride".into(),
                lens: vec![0, 1, 2]
            }]
        );
    }

    #[test]
    fn promotion_and_casting() {
        let op = pool3d();
        assert_eq!(
            recognize(&op, "gradOutput和self无法做数据类型推导。").unwrap(),
            vec![Rule::DtypePromotable {
                params: s(&["gradOutput", "self"])
            }]
        );
        assert_eq!(
            recognize(&op, "推导出的数据类型无法转换为指定输出out的类型。").unwrap(),
            vec![Rule::DtypeCastable {
                from: s(&["gradOutput", "self"]),
                to: "out".into()
            }]
        );
        assert_eq!(
            recognize(&op, "out的数据类型不是self可转换的。").unwrap(),
            vec![Rule::DtypeCastable {
                from: s(&["self"]),
                to: "out".into()
            }]
        );
        assert_eq!(
            recognize(&op, "self与out的数据类型不一致且无法转换。").unwrap(),
            vec![Rule::DtypeCastable {
                from: s(&["self"]),
                to: "out".into()
            }]
        );
    }

    #[test]
    fn dim_index_and_value_sets() {
        let mut op = pool3d();
        op.params.push(attr("dim", "int64_t", &[]));
        op.params.push(attr("reduction", "int64_t", &[]));
        let axis = Rule::AxisIn {
            param: "dim".into(),
            tensor: "self".into(),
        };
        assert_eq!(
            recognize(&op, "dim的值不在[-self的维度数量， self的维度数量-1]之间。").unwrap(),
            vec![axis.clone()]
        );
        assert_eq!(
            recognize(&op, "dim值不在self维度范围内。").unwrap(),
            vec![axis]
        );
        assert_eq!(
            recognize(&op, "reduction的值非0, 1, 2三值之一。").unwrap(),
            vec![Rule::IntIn {
                param: "reduction".into(),
                values: vec![0, 1, 2]
            }]
        );
        assert!(recognize(&op, "self中的值超过out指定dim的最大值。").is_err());
    }

    #[test]
    fn dim_out_of_bounds_and_rank_words() {
        let mut op = pool3d();
        op.params.push(attr("dim", "int64_t", &[]));
        assert_eq!(
            recognize(&op, "dim超出输入self的维度范围时。").unwrap(),
            vec![Rule::AxisIn {
                param: "dim".into(),
                tensor: "self".into()
            }]
        );
        assert_eq!(
            recognize(&op, "dim越界时。").unwrap(),
            vec![Rule::AxisIn {
                param: "dim".into(),
                tensor: "gradOutput".into()
            }]
        );
        assert_eq!(
            recognize(&op, "out非3维tensor，self非4维tensor。").unwrap(),
            vec![
                Rule::RankIn {
                    param: "out".into(),
                    min: 3,
                    max: 3
                },
                Rule::RankIn {
                    param: "self".into(),
                    min: 4,
                    max: 4
                },
            ]
        );
        assert_eq!(
            recognize(&pool3d(), "self的dim不为3。").unwrap(),
            vec![Rule::RankIn {
                param: "self".into(),
                min: 3,
                max: 3
            }]
        );
    }

    #[test]
    fn attribute_order_and_non_null_subject() {
        let mut op = pool3d();
        op.params.push(attr("quantMin", "int64_t", &[]));
        op.params.push(attr("quantMax", "int64_t", &[]));
        assert_eq!(
            recognize(&op, "quantMin大于quantMax。").unwrap(),
            vec![Rule::IntAtMost {
                lhs: "quantMin".into(),
                rhs: "quantMax".into()
            }]
        );
        assert_eq!(
            recognize(&op, "quantMax小于quantMin。").unwrap(),
            vec![Rule::IntAtMost {
                lhs: "quantMin".into(),
                rhs: "quantMax".into()
            }]
        );
        op.params[0].optional = true;
        assert_eq!(
            recognize(
                &op,
                "当gradOutput不为空指针，其shape不能broadcast到self的shape。"
            )
            .unwrap(),
            vec![Rule::Broadcastable {
                from: "gradOutput".into(),
                to: "self".into(),
                dims: None
            }]
        );
    }

    #[test]
    fn shape_against_a_list_attribute() {
        let mut op = pool3d();
        op.params
            .push(attr("normalizedShape", "const aclIntArray*", &[]));
        op.params[0].optional = true;
        assert_eq!(
            recognize(&op, "gradOutput非空且shape与normalizedShape不相等。").unwrap(),
            vec![Rule::ShapeMatchesList {
                param: "gradOutput".into(),
                list: "normalizedShape".into(),
                trailing: false
            }]
        );
        assert_eq!(
            recognize(
                &op,
                "self的shape与normalizedShape右对齐时对应维度shape不相等。"
            )
            .unwrap(),
            vec![Rule::ShapeMatchesList {
                param: "self".into(),
                list: "normalizedShape".into(),
                trailing: true
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
    fn dtype_equality_leaves_out_tensors_that_share_no_dtype() {
        let mut op = pool3d();
        let mut index = tensor("index", Role::InputTensor);
        index.dtypes = [("ascend910b".to_string(), vec![DType::Int32, DType::Int64])]
            .into_iter()
            .collect();
        op.params.insert(1, index);
        assert_eq!(
            recognize(&op, "输入输出数据类型不一致。").unwrap(),
            vec![Rule::DtypeSame {
                params: s(&["gradOutput", "self", "out"])
            }]
        );
    }

    #[test]
    fn derived_shapes_named_axes_and_allowed_empty_tensors_are_not_guessed() {
        let mut op = pool3d();
        op.params.push(attr("dim", "int64_t", &[]));
        // Each of these was read as a stricter rule that rejects valid calls.
        for c in [
            "out的shape不等于self根据dim拆分后的shape。",
            "self的shape在C、H、W的某个轴为0。",
            "self不为1D tensor或空tensor。",
            "self是空tensor，out不是空tensor。",
        ] {
            assert!(recognize(&op, c).is_err(), "{c}: {:?}", recognize(&op, c));
        }
        assert_eq!(
            recognize(&op, "self的shape存在某个轴为0。").unwrap(),
            vec![Rule::DimsPositive {
                param: "self".into(),
                allow_zero: false
            }]
        );
        assert_eq!(
            recognize(&op, "参数out的数据类型不是gradOutput可转换的。").unwrap(),
            vec![Rule::DtypeCastable {
                from: s(&["gradOutput"]),
                to: "out".into()
            }]
        );
    }

    #[test]
    fn promotion_of_every_input_leaves_out_quantization_parameters() {
        let mut op = pool3d();
        let mut scale = tensor("deqScale", Role::InputTensor);
        scale.dtypes = [("ascend910b".to_string(), vec![DType::UInt64])]
            .into_iter()
            .collect();
        op.params.insert(2, scale);
        assert_eq!(
            recognize(&op, "推导出的数据类型无法转换为指定输出out的类型。").unwrap(),
            vec![Rule::DtypeCastable {
                from: s(&["gradOutput", "self"]),
                to: "out".into()
            }]
        );
    }

    #[test]
    fn a_shape_against_the_requirements_is_the_descriptions_constraints() {
        let rules = recognize(&pool3d(), "self的shape不符合要求。").unwrap();
        assert_eq!(
            rules,
            vec![Rule::RankIn {
                param: "self".into(),
                min: 4,
                max: 5
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
        let mut op = pool3d();
        op.params.push(attr("padding", "const aclIntArray*", &[]));
        op.params
            .push(attr("kernelSize", "const aclIntArray*", &[]));
        assert_eq!(
            recognize(&op, "padding的数值中存在小于0或者大于kernelSize/2的值。").unwrap(),
            vec![
                Rule::ListElemsInRange {
                    param: "padding".into(),
                    min: Some(0),
                    max: None
                },
                Rule::ListElemsAtMostFraction {
                    lhs: "padding".into(),
                    rhs: "kernelSize".into(),
                    num: 2,
                    den: 1
                },
            ]
        );
        assert!(recognize(&op, "self的最后一维不是偶数。").is_err());
        assert!(recognize(
            &op,
            "out的维度数与self不一致，或out在dim对应维度上的大小不等于self的一半。"
        )
        .is_err());
    }

    #[test]
    fn particular_dims_equal() {
        let op = pool3d();
        let eq = |l: &str, ld, r: &str, rd| Rule::DimsEqual {
            lhs: l.into(),
            lhs_dim: ld,
            rhs: r.into(),
            rhs_dim: rd,
        };
        assert_eq!(
            recognize(&op, "self的最后一维和out的倒数第二维不相等。").unwrap(),
            vec![eq("self", -1, "out", -2)]
        );
        assert_eq!(
            recognize(&op, "self的第二维和out的第一维度不相等。").unwrap(),
            vec![eq("self", 1, "out", 0)]
        );
        assert_eq!(
            recognize(&op, "self和out的第一维度不相等。").unwrap(),
            vec![eq("self", 0, "out", 0)]
        );
        assert_eq!(
            recognize(&op, "self的第三个维度值不等于out的第2个维度值。").unwrap(),
            vec![eq("self", 2, "out", 1)]
        );
        assert_eq!(
            recognize(&op, "gradOutput、self和out在第一维上的size不一致。").unwrap(),
            vec![
                eq("gradOutput", 0, "self", 0),
                eq("gradOutput", 0, "out", 0)
            ]
        );
    }

    #[test]
    fn matrix_product_condition() {
        assert_eq!(
            recognize(&pool3d(), "self和out不满足相乘条件。").unwrap(),
            vec![Rule::DimsEqual {
                lhs: "self".into(),
                lhs_dim: -1,
                rhs: "out".into(),
                rhs_dim: -2
            }]
        );
    }

    #[test]
    fn rank_phrasings() {
        assert_eq!(stated_rank("不是4维或者5维").unwrap(), Some((4, 5)));
        assert_eq!(stated_rank("维度超过8维").unwrap(), Some((0, 8)));
        assert_eq!(stated_rank("维数不在[3-4]").unwrap(), Some((3, 4)));
        assert!(stated_rank("维数不等于2或4").is_err());
        assert_eq!(stated_rank("维度不在支持范围内").unwrap(), None);
    }
}
