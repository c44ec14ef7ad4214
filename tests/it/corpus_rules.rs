//! Over `../shared/corpus`: the share of documented error conditions the rules stage maps to
//! executable rules (the rest are manual, each with a reason). Fails below 78%.

use aclgen::ir::{Mapping, OpIr};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{corpus, first_difference, param_facts};

fn docs_below(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "md"));
    files.sort();
    files
}

/// A space wherever an ASCII word meets a Chinese character ("self 或 out 的 shape"), as some
/// docs write.
fn spaced_apart(c: &str) -> String {
    let word = |ch: char| ch.is_ascii_alphanumeric() || ch == '_';
    let mut out = String::new();
    let mut prev: Option<char> = None;
    for ch in c.chars() {
        if let Some(p) = prev {
            if (word(p) && !ch.is_ascii()) || (!p.is_ascii() && word(ch)) {
                out.push(' ');
            }
        }
        out.push(ch);
        prev = Some(ch);
    }
    out
}

/// `c` with each `find` that stands right after a name (an ASCII word, or a backquote) written
/// `with` instead.
fn after_a_name(c: &str, find: &str, with: &str) -> String {
    let mut out = String::new();
    let mut rest = c;
    while let Some(at) = rest.find(find) {
        let (head, tail) = rest.split_at(at);
        out.push_str(head);
        let after_name = head
            .chars()
            .last()
            .is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '`');
        out.push_str(if after_name { with } else { find });
        rest = &tail[find.len()..];
    }
    out.push_str(rest);
    out
}

fn read_all(corpus: &Path) -> Vec<OpIr> {
    let mut ops = Vec::new();
    for folder in ["ops-nn/docs", "ops-nn-2025-12/docs"] {
        for path in docs_below(&corpus.join(folder)) {
            let bytes = std::fs::read(&path).expect("read corpus doc");
            let read = aclgen::read::read_doc(&path.display().to_string(), &bytes);
            ops.extend(read.ops);
        }
    }
    ops
}

#[test]
fn most_documented_conditions_become_rules() {
    let Some(corpus) = corpus() else {
        return;
    };
    let mut ops = read_all(&corpus);
    for op in &mut ops {
        aclgen::rules::apply(op);
    }
    let (mapped, total) = aclgen::rules::coverage(&ops);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut manual_examples: Vec<String> = Vec::new();
    for op in &ops {
        for e in &op.errors {
            match &e.mapping {
                Some(Mapping::Manual { reason, .. }) => {
                    // Group reasons by their first words so the summary stays short.
                    let key: String = reason
                        .split(['(', '“', ','])
                        .next()
                        .unwrap_or("")
                        .to_string();
                    *reasons.entry(key).or_default() += 1;
                    manual_examples.push(format!("{}: {} — {reason}", op.op, e.condition));
                }
                None => panic!("{}: condition without mapping: {}", op.op, e.condition),
                Some(Mapping::Rules { rules, .. }) => {
                    assert!(!rules.is_empty(), "{}: empty rules", op.op);
                    if std::env::var_os("ACLGEN_LIST_MAPPED").is_some() {
                        let kinds: Vec<String> = rules
                            .iter()
                            .map(|r| serde_json::to_string(&r.rule).unwrap_or_default())
                            .collect();
                        println!(
                            "    MAPPED {}: {} => {}",
                            op.op,
                            e.condition,
                            kinds.join(" ; ")
                        );
                    }
                }
            }
        }
    }
    let share = 100.0 * mapped as f64 / total.max(1) as f64;
    // The validators implement the first phase's argument checks: 161001 and 161002 rows.
    // Other rows (561xxx inner errors, 361001 runtime errors) describe failures no argument
    // check can foresee; they are reported, and kept as manual, but not held to the bar.
    let argument_rows = |mapped_only: bool| {
        ops.iter()
            .flat_map(|o| &o.errors)
            .filter(|e| matches!(e.code, 161001 | 161002))
            .filter(|e| !mapped_only || matches!(e.mapping, Some(Mapping::Rules { .. })))
            .count()
    };
    let (arg_mapped, arg_total) = (argument_rows(true), argument_rows(false));
    let arg_share = 100.0 * arg_mapped as f64 / arg_total.max(1) as f64;
    println!(
        "corpus: 161001/161002 conditions: {arg_total}, {arg_mapped} mapped to rules ({arg_share:.1}%)"
    );
    println!(
        "corpus: {} ops, {total} documented conditions, {mapped} mapped to rules ({share:.1}%), {} manual",
        ops.len(),
        total - mapped
    );
    let mut by_count: Vec<(&String, &usize)> = reasons.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (reason, n) in by_count.iter().take(15) {
        println!("  manual {n:5}  {reason}");
    }
    if std::env::var_os("ACLGEN_LIST_MANUAL").is_some() {
        for m in &manual_examples {
            println!("    {m}");
        }
    }
    assert!(
        total > 1000,
        "the corpus should hold thousands of conditions, found {total}"
    );
    // 78%, not 80%: since issue 17 the rules are measured against CANN's own unit tests
    // (tests/corpus_conform.rs), and conditions that name no exact relation ("shape不正确",
    // a relation to one axis) are manual instead of guessed, because the guesses rejected calls
    // CANN accepts. The share of mapped conditions alone rewards guessing.
    assert!(
        share >= 78.0,
        "only {share:.1}% of documented conditions map to rules"
    );
}

/// Over every doc of the corpus, a row reads the same however it is spelt: spaces around its
/// names, "或者", "nullptr"/"NULL", no 的, "形状"/"dtype"/"Shape", "x shape", "a、b", full-width
/// digits, "不在支持范围内", "不相同"/"不同", "维数"/"维度数", ASCII commas, backticked names,
/// "为空指针", "不符合", "超过", "张量", no "传入的", "不支持", comparison symbols, "a/b", "与",
/// "入参x"/"参数x", "tensor", "格式", "元素数量", "需要", a trailing "时", "不是", no "的值",
/// Chinese numerals, "类型". Docs of other repositories write each, and a reading that depends on
/// such spelling misreads docs nobody tuned it to; the list only grows.
#[test]
fn readings_do_not_depend_on_how_a_row_is_spelt() {
    let Some(corpus) = corpus() else {
        return;
    };
    let spaced = |c: &str| spaced_apart(c);
    let huozhe = |c: &str| c.replace("或者", "或").replace('或', "或者");
    let nullptr = |c: &str| c.replace("空指针", "nullptr");
    let no_de = |c: &str| {
        c.replace("的数据类型", "数据类型")
            .replace("的数据格式", "数据格式")
    };
    let words = |c: &str| c.replace("shape", "形状").replace("的数据类型", "的dtype");
    let dun = |c: &str| -> String {
        // "mat1和mat2" → "mat1、mat2": between two names (not after "shape").
        let chars: Vec<char> = c.chars().collect();
        let mut out = String::new();
        for (i, &ch) in chars.iter().enumerate() {
            let before: String = chars[..i]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == '_')
                .collect();
            let next_is_name = chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic());
            let two_names = !before.is_empty() && before != "epahs" && next_is_name;
            out.push(if ch == '和' && two_names { '、' } else { ch });
        }
        out
    };
    let full_width = |c: &str| -> String {
        // Digits and square brackets in their full-width forms ("［1, 8］", "不等于２").
        c.chars()
            .map(|ch| match ch {
                '0'..='9' | '[' | ']' => char::from_u32(ch as u32 + 0xfee0).unwrap_or(ch),
                ch => ch,
            })
            .collect()
    };
    let range_words = |c: &str| {
        c.replace("不在支持的范围之内", "不在支持范围内")
            .replace("不在支持的范围内", "不在支持范围内")
    };
    let xiangdeng = |c: &str| c.replace("不一致", "不相同");
    // "x的维度不为4" → "x的维数不为4": a rank statement after a name (not "dim所对应的维度").
    let wei_shu = |c: &str| {
        let mut out = c.to_string();
        for verb in ["不", "大于", "小于", "超过", "为", "是"] {
            out = after_a_name(&out, &format!("的维度{verb}"), &format!("的维数{verb}"));
        }
        out
    };
    let ascii_comma = |c: &str| c.replace('，', ",");
    // "fusedOpType为add、mul时" → "add,mul": a list of values (not of statements: 、 between
    // two statements makes them alternatives, which "," does not).
    let value_commas = |c: &str| -> String {
        let chars: Vec<char> = c.chars().collect();
        let word =
            |ch: Option<&char>| ch.is_some_and(|ch| ch.is_ascii_alphanumeric() || *ch == '"');
        (0..chars.len())
            .map(|i| {
                let ch = chars[i];
                if ch == '、'
                    && word(i.checked_sub(1).and_then(|j| chars.get(j)))
                    && word(chars.get(i + 1))
                {
                    ','
                } else {
                    ch
                }
            })
            .collect()
    };
    let backticks = |c: &str| -> String {
        // "`self`或`out`": names in backticks, as Markdown-first docs write them.
        let word = |ch: char| ch.is_ascii_alphanumeric() || ch == '_';
        let mut out = String::new();
        let mut in_word = false;
        for ch in c.chars() {
            if word(ch) && !in_word {
                out.push('`');
                in_word = true;
            } else if !word(ch) && in_word {
                out.push('`');
                in_word = false;
            }
            out.push(ch);
        }
        if in_word {
            out.push('`');
        }
        out
    };
    let wei_kong = |c: &str| c.replace("是空指针", "为空指针");
    let bu_fuhe = |c: &str| c.replace("不满足", "不符合");
    let chaoguo = |c: &str| c.replace("维度大于", "维度超过");
    let zhangliang = |c: &str| {
        c.replace("空tensor", "空Tensor")
            .replace("空Tensor", "空张量")
    };
    let chuanru = |c: &str| c.replacen("传入的", "", 1);
    let butong = |c: &str| c.replace("不一致", "不同");
    let bu_zhichi = |c: &str| {
        c.replace("的数据类型不在支持的范围之内", "的数据类型不支持")
            .replace("的数据类型不在支持范围内", "的数据类型不支持")
    };
    let symbols = |c: &str| {
        c.replace("不大于", "<=")
            .replace("不小于", ">=")
            .replace("大于等于", ">=")
            .replace("小于等于", "<=")
            .replace("不等于", "!=")
            .replace("大于", ">")
            .replace("小于", "<")
    };
    let yu = |c: &str| after_a_name(c, "和", "与");
    // "输入self的维度" → "入参self的维度": before a name.
    let rucan = |c: &str| {
        if c.contains("没有输入") || c.contains("未输入") {
            // "输入x，而没有输入y": a verb, not the lead word.
            return c.to_string();
        }
        let chars: Vec<char> = c.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            let next: String = chars[(i + 2).min(chars.len())..]
                .iter()
                .take_while(|n| n.is_ascii_alphanumeric() || **n == '_')
                .collect();
            let before_name = next.starts_with(|n: char| n.is_ascii_alphabetic())
                && !next.eq_ignore_ascii_case("tensor");
            let a_verb = i > 0 && matches!(chars[i - 1], '有' | '没');
            if chars[i] == '输' && chars.get(i + 1) == Some(&'入') && before_name && !a_verb {
                out.push_str("入参");
                i += 2;
            } else {
                out.push(chars[i]);
                i += 1;
            }
        }
        out
    };
    let lower_tensor = |c: &str| {
        c.replace("aclTensor", "\u{0}")
            .replace("Tensor", "tensor")
            .replace('\u{0}', "aclTensor")
    };
    let geshi = |c: &str| c.replace("数据格式", "格式");
    let yuansu = |c: &str| c.replace("元素个数", "元素数量");
    let xuyao = |c: &str| c.replace("必须", "需要");
    let shape_case =
        |c: &str| after_a_name(&format!(" {c}"), "的shape", "的Shape")[1..].to_string();
    let bushi = |c: &str| c.replace("不为", "不是");
    let weidushu = |c: &str| {
        let mut out = c.to_string();
        for verb in ["不", "大于", "小于", "超过"] {
            out = after_a_name(&out, &format!("的维度{verb}"), &format!("的维度数{verb}"));
        }
        out
    };
    // "…不在支持的范围之内。" → "…不在支持的范围之内时。", as some docs end a row.
    let trailing_shi = |c: &str| -> String {
        let body = c.trim_end_matches(['。', '.', ';', '；']);
        if body.ends_with('时')
            || body.contains("时，")
            || body.contains("时,")
            || body.contains("情况下")
        {
            c.to_string()
        } else {
            format!("{body}时。")
        }
    };
    // "x的数据类型" → "参数x的数据类型" at the start of a row.
    let canshu = |c: &str| {
        if c.starts_with(|ch: char| ch.is_ascii_alphabetic()) {
            format!("参数{c}")
        } else {
            c.to_string()
        }
    };
    let no_de_zhi = |c: &str| after_a_name(c, "的值", "");
    // "不是2维" → "不是二维": a rank in Chinese numerals.
    let numerals = |c: &str| {
        let re = regex::Regex::new(r"([^\d.\-])([1-8])维").expect("regex");
        re.replace_all(c, |m: &regex::Captures| {
            let n: usize = m[2].parse().unwrap_or(1);
            format!(
                "{}{}维",
                &m[1],
                ["一", "二", "三", "四", "五", "六", "七", "八"][n - 1]
            )
        })
        .into_owned()
    };
    let xiangtong_row = |c: &str| c.replace("不一致", "不相同");
    let leixing = |c: &str| after_a_name(c, "的数据类型", "的类型");
    let null_upper = |c: &str| c.replace("空指针", "NULL");
    // "x的shape" → "x shape": only after a name.
    let name_shape = |c: &str| after_a_name(c, "的shape", " shape");
    let rules_of = |op: &OpIr| -> Vec<Option<Vec<aclnn_runtime::Rule>>> {
        op.errors
            .iter()
            .map(|e| match &e.mapping {
                Some(Mapping::Rules { rules, .. }) => {
                    Some(rules.iter().map(|r| r.rule.clone()).collect())
                }
                _ => None,
            })
            .collect()
    };
    let mut changed = Vec::new();
    let mut rows = 0;
    let mut respellings = 0;
    for op in read_all(&corpus) {
        let mut base = op.clone();
        aclgen::rules::apply(&mut base);
        let base_rules = rules_of(&base);
        rows += base_rules.len();
        // "x或y的数据类型" → "x/y的数据类型": between two of the op's parameters.
        let slash = |c: &str| -> String {
            let is_param = |w: &str| op.params.iter().any(|p| p.name == w);
            let mut out = String::new();
            let mut rest = c;
            while let Some(at) = rest.find('或') {
                let (head, tail) = rest.split_at(at);
                let tail = &tail['或'.len_utf8()..];
                let before: String = {
                    let mut w: Vec<char> = head
                        .chars()
                        .rev()
                        .take_while(|b| b.is_ascii_alphanumeric() || *b == '_')
                        .collect();
                    w.reverse();
                    w.into_iter().collect()
                };
                let after: String = tail
                    .chars()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == '_')
                    .collect();
                out.push_str(head);
                out.push(if is_param(&before) && is_param(&after) {
                    '/'
                } else {
                    '或'
                });
                rest = tail;
            }
            out.push_str(rest);
            out
        };
        let list = [
            ("spaces", &spaced as &dyn Fn(&str) -> String),
            ("或者", &huozhe),
            ("nullptr", &nullptr),
            ("的", &no_de),
            ("形状/dtype", &words),
            ("x shape", &name_shape),
            ("a、b", &dun),
            ("full-width", &full_width),
            ("范围内", &range_words),
            ("不相同", &xiangdeng),
            ("维数", &wei_shu),
            ("ascii comma", &ascii_comma),
            ("a,b", &value_commas),
            ("为空指针", &wei_kong),
            ("不符合", &bu_fuhe),
            ("超过", &chaoguo),
            ("张量", &zhangliang),
            ("传入", &chuanru),
            ("不同", &butong),
            ("不支持", &bu_zhichi),
            ("> <", &symbols),
            ("a/b", &slash),
            ("与", &yu),
            ("入参", &rucan),
            ("tensor", &lower_tensor),
            ("格式", &geshi),
            ("元素数量", &yuansu),
            ("需要", &xuyao),
            ("Shape", &shape_case),
            ("不是", &bushi),
            ("维度数", &weidushu),
            ("…时", &trailing_shi),
            ("参数x", &canshu),
            ("的值", &no_de_zhi),
            ("二维", &numerals),
            ("相同", &xiangtong_row),
            ("类型", &leixing),
            ("NULL", &null_upper),
            ("backticks", &backticks),
        ];
        respellings = list.len();
        for (name, perturb) in list {
            let mut other = op.clone();
            for e in &mut other.errors {
                e.condition = perturb(&e.condition);
            }
            aclgen::rules::apply(&mut other);
            for ((a, b), e) in base_rules.iter().zip(rules_of(&other)).zip(&op.errors) {
                if *a != b {
                    changed.push(format!(
                        "{} ({name}): {}\n   {:?}\n   {:?}",
                        op.op, e.condition, a, b
                    ));
                }
            }
        }
    }
    eprintln!(
        "readings stable under {respellings} respellings: {} of {rows} rows changed",
        changed.len()
    );
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// What a parameter table states ("shape与self一致", dtype lists, ranks) reads alike however the
/// cells word it: "相同" for "一致", "和" for "与", "保持一致" for "一致", spaces around names
/// ("shape、dtype 必须与 predict 一致"), "FLOAT16, FLOAT32" lists, "1~8" ranks, "的形状". Each
/// rewrite is applied to every cell of the doc before the error table, and the doc read again;
/// the readings of the error rows, the rules inferred from the table and each parameter's facts
/// must not change.
#[test]
fn table_relations_do_not_depend_on_how_a_cell_is_spelt() {
    let Some(corpus) = corpus() else {
        return;
    };
    let xiangtong = |c: &str| c.replace("保持一致", "相同").replace("一致", "相同");
    let he = |c: &str| -> String {
        // "与self" → "和self": 与 before a name only.
        let chars: Vec<char> = c.chars().collect();
        chars
            .iter()
            .enumerate()
            .map(|(i, &ch)| {
                let before_name = chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic());
                if ch == '与' && before_name {
                    '和'
                } else {
                    ch
                }
            })
            .collect()
    };
    // "与self一致" → "与self保持一致": right after a name or an aspect.
    let baochi = |c: &str| after_a_name(c, "一致", "保持一致");
    // Text outside tags only: `f` rewrites each run of text between two tags.
    let in_text = |c: &str, f: &dyn Fn(&str) -> String| -> String {
        let mut out = String::new();
        let mut rest = c;
        while let Some(open) = rest.find('<') {
            out.push_str(&f(&rest[..open]));
            let close = rest[open..].find('>').map_or(rest.len(), |j| open + j + 1);
            out.push_str(&rest[open..close]);
            rest = &rest[close..];
        }
        out.push_str(&f(rest));
        out
    };
    // "数据类型支持FLOAT16、FLOAT32" → "数据类型支持 FLOAT16、FLOAT32": a space where ASCII meets CJK.
    let spaced = |c: &str| in_text(c, &spaced_apart);
    // "FLOAT16、FLOAT32" → "FLOAT16, FLOAT32": between two upper-case words.
    let dtype_commas = |c: &str| {
        in_text(c, &|t: &str| {
            let chars: Vec<char> = t.chars().collect();
            let mut out = String::new();
            for (i, &ch) in chars.iter().enumerate() {
                let upper = |j: Option<usize>| {
                    j.and_then(|j| chars.get(j))
                        .is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                };
                let dtype_next = chars.get(i + 1).is_some_and(|c| c.is_ascii_uppercase());
                if ch == '、' && upper(i.checked_sub(1)) && dtype_next {
                    out.push_str(", ");
                } else {
                    out.push(ch);
                }
            }
            out
        })
    };
    // A rank cell "1-8" → "1~8".
    let tilde = |c: &str| {
        let re = regex::Regex::new(r"<td>\s*(\d)\s*-\s*(\d)\s*</td>").expect("regex");
        re.replace_all(c, "<td>$1~$2</td>").into_owned()
    };
    let xingzhuang = |c: &str| in_text(c, &|t: &str| after_a_name(t, "的shape", "的形状"));
    let readings = |op: &OpIr| -> Vec<String> {
        let rows = op.errors.iter().map(|e| match &e.mapping {
            Some(Mapping::Rules { rules, .. }) => {
                format!("{:?}", rules.iter().map(|r| &r.rule).collect::<Vec<_>>())
            }
            _ => "manual".to_string(),
        });
        let inferred = op.inferred_rules.iter().map(|r| format!("{:?}", r.rule));
        // What the table states of each parameter, too.
        let params = op.params.iter().map(param_facts);
        rows.chain(inferred).chain(params).collect()
    };
    let read = |path: &Path, text: &str| -> Vec<OpIr> {
        let mut ops = aclgen::read::read_doc(&path.display().to_string(), text.as_bytes()).ops;
        for op in &mut ops {
            aclgen::rules::apply(op);
        }
        ops
    };
    let mut changed = Vec::new();
    let mut docs = 0;
    let mut respellings = 0;
    for folder in ["ops-nn/docs", "ops-nn-2025-12/docs"] {
        for path in docs_below(&corpus.join(folder)) {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            // The parameter tables: everything before the error table.
            let cut = text
                .find("ACLNN_ERR_PARAM_INVALID")
                .and_then(|i| text[..i].rfind("<table"))
                .unwrap_or(text.len());
            let (tables, rest) = text.split_at(cut);
            let base = read(&path, &text);
            docs += 1;
            let list = [
                ("相同", &xiangtong as &dyn Fn(&str) -> String),
                ("和", &he),
                ("保持一致", &baochi),
                ("spaces", &spaced),
                ("dtype commas", &dtype_commas),
                ("1~8", &tilde),
                ("形状", &xingzhuang),
            ];
            respellings = list.len();
            for (name, perturb) in list {
                let other = read(&path, &(perturb(tables) + rest));
                for (a, b) in base.iter().zip(&other) {
                    let (ra, rb) = (readings(a), readings(b));
                    if let Some((x, y)) = ra.iter().zip(&rb).find(|(x, y)| x != y) {
                        changed.push(format!("{} ({name}):\n   {x}\n   {y}", a.op));
                    } else if ra.len() != rb.len() {
                        changed.push(format!(
                            "{} ({name}): {} vs {} readings",
                            a.op,
                            ra.len(),
                            rb.len()
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "table readings stable under {respellings} respellings: {} of {docs} docs changed",
        changed.len()
    );
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

/// A doc reads the same whether it writes dtypes in upper case (ops-nn) or in lower case, as
/// docs of other repositories do ("数据类型支持float16、bfloat16", "无法转换为float"): every
/// canonical dtype name outside code blocks is written in lower case, and the doc read again.
/// The text the reader keeps (conditions, enumerations) is compared case-blind.
#[test]
fn dtype_names_read_alike_in_either_case() {
    let Some(corpus) = corpus() else {
        return;
    };
    let names: Vec<String> = aclnn_runtime::DType::ALL
        .iter()
        .map(|d| regex::escape(d.as_str()))
        .collect();
    let dtype = regex::Regex::new(&format!(r"\b(?:{})\b", names.join("|"))).expect("regex");
    let lower_case = |text: &str| -> String {
        // Code blocks keep theirs: prototypes and examples are C.
        text.split("```")
            .enumerate()
            .map(|(i, part)| {
                if i % 2 == 0 {
                    dtype
                        .replace_all(part, |c: &regex::Captures| c[0].to_ascii_lowercase())
                        .into_owned()
                } else {
                    part.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("```")
    };
    let facts = |op: &OpIr| -> Vec<String> {
        let rows = op
            .errors
            .iter()
            .map(|e| format!("{} {:?}", e.condition, e.mapping));
        let inferred = op.inferred_rules.iter().map(|r| format!("{:?}", r.rule));
        let params = op.params.iter().map(param_facts);
        rows.chain(inferred)
            .chain(params)
            .map(|s| s.to_ascii_uppercase())
            .collect()
    };
    let (mut docs, mut changed) = (0, Vec::new());
    for folder in ["ops-nn/docs", "ops-nn-2025-12/docs"] {
        for path in docs_below(&corpus.join(folder)) {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let lower = lower_case(&text);
            if lower == text {
                continue;
            }
            docs += 1;
            let read = |t: &str| -> Vec<Vec<String>> {
                let mut ops = aclgen::read::read_doc(&path.display().to_string(), t.as_bytes()).ops;
                ops.iter_mut().for_each(aclgen::rules::apply);
                ops.iter().map(facts).collect()
            };
            let (a, b) = (read(&text), read(&lower));
            if a != b {
                changed.push(format!("{}:{}", path.display(), first_difference(&a, &b)));
            }
        }
    }
    eprintln!(
        "dtypes in lower case: {} of {docs} docs read differently",
        changed.len()
    );
    assert!(docs > 400, "only {docs} docs name a dtype");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}
