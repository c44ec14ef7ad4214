//! Bytes to text: BOM, UTF-16, invalid UTF-8, and mojibake (UTF-8 read as Windows-1252 and saved
//! again, some bytes lost). Line structure is preserved so every later location stays true:
//! line N of the output is line N of the input.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Decoded text plus what was repaired, by 1-based line.
#[derive(Debug, Default)]
pub struct Decoded {
    pub text: String,
    pub repairs: Vec<Repair>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    pub line: usize,
    /// Stable diagnostic code: `mojibake-repaired`, `bytes-recovered`, `mojibake-unrecovered`,
    /// `invalid-utf8`, `utf16`, `bom`, `binary`.
    pub code: &'static str,
    pub message: String,
}

impl Repair {
    fn new(line: usize, code: &'static str, message: impl Into<String>) -> Self {
        Repair {
            line,
            code,
            message: message.into(),
        }
    }
}

/// At most this many `binary` / `invalid-utf8` repairs are listed one by one; the rest are counted.
const MAX_LISTED: usize = 20;

/// Decodes a doc's bytes. Never fails: what cannot be decoded is replaced and reported.
pub fn decode(bytes: &[u8]) -> Decoded {
    let mut repairs = Vec::new();
    let text = match detect_utf16(bytes) {
        Some((encoding, body, had_bom)) => {
            if had_bom {
                repairs.push(Repair::new(
                    1,
                    "bom",
                    format!("{} BOM removed", encoding.name()),
                ));
            }
            repairs.push(Repair::new(
                1,
                "utf16",
                format!("file is {}; decoded to UTF-8", encoding.name()),
            ));
            let (text, _) = encoding.decode_without_bom_handling(body);
            text.into_owned()
        }
        None => {
            let body = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
                Some(rest) => {
                    repairs.push(Repair::new(1, "bom", "UTF-8 BOM removed"));
                    rest
                }
                None => bytes,
            };
            let with_nuls = decode_utf8_lossy(body, &mut repairs);
            replace_nuls(with_nuls, &mut repairs)
        }
    };
    let text = repair_mojibake(&text, &mut repairs);
    Decoded { text, repairs }
}

/// UTF-16 by BOM, or without BOM when NUL bytes sit almost only at odd (LE) or even (BE) offsets,
/// which is what ASCII-heavy UTF-16 text looks like.
fn detect_utf16(bytes: &[u8]) -> Option<(&'static encoding_rs::Encoding, &[u8], bool)> {
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return Some((encoding_rs::UTF_16LE, rest, true));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return Some((encoding_rs::UTF_16BE, rest, true));
    }
    let sample = &bytes[..bytes.len().min(8192) & !1];
    let pairs = sample.len() / 2;
    // Too short to tell UTF-16 from binary with a few NULs.
    if pairs < 8 {
        return None;
    }
    let even_nuls = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_nuls = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&b| b == 0)
        .count();
    // Mostly-ASCII UTF-16: one byte of each pair is NUL; CJK text has few NULs, so a lower bar.
    let many = |n: usize| n * 10 >= pairs * 3;
    let few = |n: usize| n * 20 <= pairs;
    let encoding = if many(odd_nuls) && few(even_nuls) {
        encoding_rs::UTF_16LE
    } else if many(even_nuls) && few(odd_nuls) {
        encoding_rs::UTF_16BE
    } else {
        return None;
    };
    // Binary data can have the same NUL pattern; real UTF-16 has no unpaired surrogates.
    encoding
        .decode_without_bom_handling_and_without_replacement(sample)
        .map(|_| (encoding, bytes, false))
}

/// UTF-8 decode replacing each invalid sequence with U+FFFD, reporting the lines it happened on.
fn decode_utf8_lossy(bytes: &[u8], repairs: &mut Vec<Repair>) -> String {
    let mut text = String::with_capacity(bytes.len());
    let mut line = 1;
    let mut bad_lines = 0usize;
    let mut last_bad_line = 0;
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        line += valid.bytes().filter(|&b| b == b'\n').count();
        text.push_str(valid);
        let invalid = chunk.invalid();
        if invalid.is_empty() {
            continue;
        }
        text.push(char::REPLACEMENT_CHARACTER);
        if line != last_bad_line {
            last_bad_line = line;
            bad_lines += 1;
            if bad_lines <= MAX_LISTED {
                // A lead byte cut off by the end of the file: the doc was truncated.
                let at_end = std::ptr::eq(invalid.as_ptr_range().end, bytes.as_ptr_range().end)
                    && invalid.first().copied().is_some_and(is_lead);
                let what = if at_end {
                    "file ends in the middle of a UTF-8 character"
                } else {
                    "invalid UTF-8 replaced with U+FFFD"
                };
                repairs.push(Repair::new(line, "invalid-utf8", what));
            }
        }
    }
    if bad_lines > MAX_LISTED {
        repairs.push(Repair::new(
            last_bad_line,
            "invalid-utf8",
            format!("{} more lines with invalid UTF-8", bad_lines - MAX_LISTED),
        ));
    }
    text
}

/// NUL bytes outside UTF-16 mean binary content: replace them so later stages see text.
fn replace_nuls(text: String, repairs: &mut Vec<Repair>) -> String {
    if !text.contains('\0') {
        return text;
    }
    let mut listed = 0usize;
    let mut total = 0usize;
    for (i, line) in text.split('\n').enumerate() {
        let nuls = line.bytes().filter(|&b| b == 0).count();
        if nuls == 0 {
            continue;
        }
        total += 1;
        if listed < MAX_LISTED {
            listed += 1;
            repairs.push(Repair::new(
                i + 1,
                "binary",
                format!("{nuls} NUL bytes replaced with U+FFFD (binary data?)"),
            ));
        }
    }
    if total > listed {
        repairs.push(Repair::new(
            1,
            "binary",
            format!("{} more lines with NUL bytes", total - listed),
        ));
    }
    text.replace('\0', "\u{FFFD}")
}

// ---------------------------------------------------------------------------------------------
// Mojibake

/// Terms of CANN operator docs, used to choose the lost byte of a damaged character: the
/// candidate that completes one of these words wins. Longest match first, then list order.
const DOC_TERMS: &[&str] = &[
    "不支持",
    "参数名",
    "数据类型",
    "数据格式",
    "系列产品",
    "计算输入",
    "计算输出",
    "空指针",
    "产品",
    "推理",
    "训练",
    "系列",
    "参数",
    "支持",
    "数据",
    "类型",
    "格式",
    "输入",
    "输出",
    "说明",
    "描述",
    "维度",
    "连续",
    "返回",
    "错误",
    "接口",
    "函数",
    "原型",
    "约束",
    "调用",
    "示例",
    "计算",
    "公式",
    "步长",
    "池化",
    "梯度",
    "正向",
    "反向",
    "内存",
    "申请",
    "范围",
    "一致",
    "中的",
    "执行",
    "窗口",
    "算子",
    "功能",
    "使用",
    "取值",
    "张量",
    "形状",
    "传入",
    "满足",
    "大小",
    "需要",
    "必须",
    "如果",
    "包含",
    "流程",
    "地址",
    "状态",
    "处理",
    "结果",
    "平均",
    "最大",
    "自适应",
    "填充",
    "元素",
    "指定",
    "任务",
    "侧的",
    "获取",
    "所需",
    "场景",
    "要求",
    "其中",
    "表示",
    "以及",
    "或者",
    "相同",
    "不同",
    "长度",
    "取整",
    "像素",
    "特征",
    "损失",
    "偏导",
    "导数",
    "叶子",
    "节点",
    "对应",
    "广播",
    "单向",
    "保持",
    "实际",
    "版本",
    "当前",
    "为空",
    "非空",
    "属性",
    "出参",
    "入参",
    "情况",
    "型号",
    "限制",
    "代码",
    "编译",
    "参考",
    "具体",
    "仅供",
    "如下",
    "模式",
    "整数",
    "向上",
    "向下",
    "意义",
    "假设",
    "大于",
    "小于",
    "等于",
    "不能",
    "可选",
    "配置",
    "精度",
    "设置",
    "默认",
    "允许",
    "并且",
    "同时",
    "分为",
    "两段",
    "先调",
    "流程",
    "工作",
    "空间",
    "个数",
    "每个",
    "源码",
    "查看",
    "二维",
    "三维",
    "一维",
    "影响",
    "枚举",
    "无需",
    "升精度",
    "降精度",
    "某个",
    "各",
    "的",
    "是",
    "否",
    "在",
    "为",
    "与",
    // The enumeration comma ends in 0x81, a byte cp1252 lacks, so it loses a byte more than any
    // other character; it is a term of its own.
    "、",
];

/// The 700 most frequent pairs of Chinese characters / full-width punctuation in the CANN doc
/// corpus (`../shared/corpus`, counted once and committed here), ranked by frequency. They back
/// up `DOC_TERMS` when choosing a lost byte.
const CORPUS_BIGRAMS: &str = "\
    输入 数据 支持 接口 计算 输出 产品 类型 返回 据类 调用 系列 列产 \
    需要 执行 具体 根据 参数 算子 说明 内存 申请 段接 创建 推理 一致 \
    公式 中的 ，需 第一 维度 的数 训练 练系 表示 大小 一段 理系 不支 \
    致。 定义 的接 格式 要根 式中 修改 请的 侧申 包含 获取 流程 ，具 \
    连续 据格 侧内 算流 行器 对应 固定 回码 参考 器， 子计 定写 写法 \
    入参 时， 含了 了算 描述 出的 口定 据具 义修 参见 回值 示例 ：支 \
    范围 状态 量化 数说 结果 ：返 码， 编译 功能 ，包 体参 态码 程。 \
    任务 确定 初始 回状 必须 定性 ：不 始化 存上 非连 场景 构造 法） \
    张量 （固 约束 持空 指定 资源 数名 释放 拷贝 用“ ”接 的值 型不 \
    每个 元素 传入 应公 函数 指针 的输 算。 使用 不在 空指 进行 入的 \
    保持 内。 持一 值， 如下 束说 小， 满足 与输 明： 持的 第二 在支 \
    ，对 据自 完成 实现 算输 情况 小。 上的 的范 以下 出， 理产 自己 \
    己的 的结 下， 过程 的维 默认 实际 用示 样例 两段 段式 运行 式接 \
    值： ，将 校验 ，出 行计 与运 译与 行样 算出 型支 要与 出现 不一 \
    ，再 地址 等于 ，仅 ，由 针。 报错 据第 口计 分为 二段 址。 型为 \
    要在 行任 务的 算公 ，必 定执 原型 存地 取。 验， 由第 能说 参校 \
    数原 成入 法， 下场 算连 侧数 景时 时报 口创 错： 代码 同步 等待 \
    结束 请参 关系 续的 行结 例代 取输 步等 品支 现以 务执 持情 先调 \
    再调 待任 是空 须先 回需 和执 个算 性实 子分 造输 行过 所需 译和 \
    体编 程请 入与 口执 的实 自定 子库 推导 口获 以及 仅供 供参 考， \
    填写 码如 ）同 算所 义构 错误 口自 大于 取值 侧， 梯度 之内 ，公 \
    源初 围之 一维 其中 ，资 数， 误码 长度 化， 用说 式： 体的 相同 \
    改为 为具 要修 能： 现。 手册 ，参 数。 性计 认确 贝到 ，数 据拷 \
    转换 口完 的执 算： 程的 取计 小以 及包 贝至 果拷 型与 处理 最后 \
    仅支 ，其 矩阵 算的 名称 源， ，支 口功 一个 侧的 后的 ，当 模式 \
    或者 围内 。对 是否 列表 当输 最大 致， 后一 如果 ，且 入张 可选 \
    值。 的最 查看 源码 型需 个数 要求 看源 同。 型和 ：数 出参 运算 \
    维。 量， 度为 反向 索引 应的 于等 当前 示输 和数 的第 不满 值为 \
    存在 超过 不为 量。 ，计 入数 所有 ，表 小于 度， 度。 量列 为空 \
    位置 缩放 转置 其他 维， 与入 的梯 通过 度不 型保 出张 值范 正向 \
    代表 组件 异构 构组 数量 换为 相等 度数 的元 该参 复制 选输 激活 \
    操作 。支 分组 用于 入） ，输 数值 精度 参） ，则 数的 素个 权重 \
    型。 更新 的大 数中 阵乘 式不 维的 传播 算结 向传 互推 规则 个元 \
    对输 型推 大值 等。 导关 算， ：在 入， 个维 （参 个输 因子 否支 \
    中所 不是 归一 一化 度与 式。 时不 要处 目标 须为 的需 度大 ，不 \
    不同 采样 的计 对于 定的 值不 不能 导规 轴的 。数 度上 的取 示进 \
    果。 和输 部分 化的 的反 无法 放因 化后 的量 入为 下： 口会 卷积 \
    不等 会完 的长 度的 足数 数组 向输 空时 针时 将输 化模 得到 应用 \
    时。 围为 维（ 。当 的缩 表， 则（ 填充 ，或 分别 景下 ，并 直接 \
    活函 理。 式为 属性 非空 子功 据， 式， 存储 池化 型、 同， 可以 \
    为： 尾轴 、数 ，入 数为 损失 据复 数不 方式 均值 必选 不相 入。 \
    中， 束。 型一 动态 型时 ，即 标量 度超 ，会 开启 出。 系数 ：对 \
    除以 限制 时： 入空 的索 二维 求和 组合 量的 式与 选参 偶数 素数 \
    最终 需满 他数 制到 的位 ；当 态量 果复 制至 维时 按照 程中 指数 \
    值的 持取 型， 标准 入是 只支 足约 入和 化计 为其 持范 组成 ：指 \
    ，用 完全 度相 算中 偏置 重复 不做 取整 中存 例： 反量 时） ，为 \
    各个 示不 融合 有效 ）的 窗口 口调 条件 中每 会转 素的 可转 小不 \
    ，最 系： ，每 内部 型的 作为 并根 同的 成输 需与 用的 偏移 景， \
    ：公 ）或 性。 的每 示： 化场 况下 逐元 向上 累加 置。 整除 于输 \
    出） 的轴 三维 持输 选择 式一 在输 不存 符合 为输 须与 应维 现， \
    置的 序列 向量 乘的 式下 示的 不符 标签 乘积 值必 的类 为非 方向 \
    中间 度计 单元 （非 每一 版本 全一 子的 同时 否则 果， 设置 特征 \
    型必 示量 倒数 缩减 取入 参并 最小 束： 做处 且数 认非 作， ，维 \
    非确 换的 保证 ：表 作。 程计 的转 须大 半部 持通 应该";

/// cp1252 byte of each char U+0080.. that encoding_rs's WINDOWS_1252 decodes from a byte >= 0x80.
fn cp1252_byte(c: char) -> Option<u8> {
    static TABLE: OnceLock<Vec<(char, u8)>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table: Vec<(char, u8)> = (0x80u8..=0xFF)
            .filter_map(|b| {
                let byte = [b];
                let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
                text.chars().next().map(|c| (c, b))
            })
            .collect();
        table.sort();
        table
    });
    if c.is_ascii() {
        return Some(c as u8);
    }
    table
        .binary_search_by_key(&c, |&(ch, _)| ch)
        .ok()
        .map(|i| table[i].1)
}

fn is_lead(b: u8) -> bool {
    (0xC2..=0xF4).contains(&b)
}

fn is_continuation(b: u8) -> bool {
    (0x80..=0xBF).contains(&b)
}

/// Length of the UTF-8 sequence a lead byte starts.
fn sequence_len(lead: u8) -> usize {
    match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// One decoded position of a repaired segment.
#[derive(Debug, Clone, PartialEq)]
enum Slot {
    Char(char),
    /// A multi-byte character that lost bytes: what is left of it and its full length.
    Damaged {
        bytes: Vec<u8>,
        len: usize,
    },
}

/// Whether `c` could be the character a damaged sequence came from: same lead byte, same
/// length, and the surviving bytes appear in order.
fn compatible(c: char, bytes: &[u8], len: usize) -> bool {
    let mut buf = [0u8; 4];
    let full = c.encode_utf8(&mut buf).as_bytes();
    if full.len() != len || full.first() != bytes.first() {
        return false;
    }
    let mut rest = full[1..].iter();
    bytes[1..].iter().all(|b| rest.any(|f| f == b))
}

/// Re-encodes each cp1252 run of every line and decodes it as UTF-8 where that yields real
/// multi-byte characters. Lines without such runs are kept byte for byte.
fn repair_mojibake(text: &str, repairs: &mut Vec<Repair>) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        match repair_line(line) {
            Some(fixed) => {
                let n = i + 1;
                repairs.push(Repair::new(
                    n,
                    "mojibake-repaired",
                    "mojibake (UTF-8 read as Windows-1252) repaired",
                ));
                if !fixed.recovered.is_empty() {
                    repairs.push(Repair::new(
                        n,
                        "bytes-recovered",
                        format!(
                            "lost bytes recovered from doc terms: {}",
                            fixed.recovered.join(", ")
                        ),
                    ));
                }
                if fixed.unrecovered > 0 {
                    repairs.push(Repair::new(
                        n,
                        "mojibake-unrecovered",
                        format!(
                            "{} character(s) lost bytes that no doc term explains; kept as U+FFFD",
                            fixed.unrecovered
                        ),
                    ));
                }
                out.push_str(&fixed.text);
            }
            None => out.push_str(line),
        }
    }
    out
}

struct FixedLine {
    text: String,
    /// Terms whose lost bytes were recovered, in line order.
    recovered: Vec<String>,
    unrecovered: usize,
}

/// Repairs one line, or `None` when it shows no mojibake.
fn repair_line(line: &str) -> Option<FixedLine> {
    if line.is_ascii() || !looks_like_mojibake(line) {
        return None;
    }
    let mut fixed = FixedLine {
        text: String::with_capacity(line.len()),
        recovered: Vec::new(),
        unrecovered: 0,
    };
    let mut changed = false;
    let mut run: Vec<u8> = Vec::new();
    let mut run_text = String::new();
    for c in line.chars() {
        match cp1252_byte(c) {
            Some(b) => {
                run.push(b);
                run_text.push(c);
            }
            None => {
                changed |= flush_run(&run, &run_text, &mut fixed);
                run.clear();
                run_text.clear();
                fixed.text.push(c);
            }
        }
    }
    changed |= flush_run(&run, &run_text, &mut fixed);
    changed.then_some(fixed)
}

/// Cheap per-line gate: a char that re-encodes to a UTF-8 lead byte directly followed by one
/// that re-encodes to a continuation byte.
fn looks_like_mojibake(line: &str) -> bool {
    let mut prev_lead = false;
    for c in line.chars() {
        let b = cp1252_byte(c);
        if prev_lead && b.is_some_and(is_continuation) {
            return true;
        }
        prev_lead = b.is_some_and(is_lead) && !c.is_ascii();
    }
    false
}

/// Decodes one run of cp1252 bytes into `fixed` if it is mojibake; otherwise copies the
/// original text. Returns whether it was repaired.
fn flush_run(run: &[u8], original: &str, fixed: &mut FixedLine) -> bool {
    if run.is_ascii() {
        fixed.text.push_str(original);
        return false;
    }
    let slots = split_slots(run);
    let whole = slots
        .iter()
        .filter(|s| matches!(s, Slot::Char(c) if !c.is_ascii()))
        .count();
    let (chars, recovered, unrecovered) = recover(&slots);
    let damaged = slots.len() - slots.iter().filter(|s| matches!(s, Slot::Char(_))).count();
    let good = whole + (damaged - unrecovered);
    // Real mojibake decodes mostly to whole characters or doc terms; Latin text ("café", "×") does not.
    if good == 0 || good < unrecovered {
        fixed.text.push_str(original);
        return false;
    }
    fixed.text.extend(chars);
    fixed.recovered.extend(recovered);
    fixed.unrecovered += unrecovered;
    true
}

/// Splits re-encoded bytes into whole characters and damaged sequences (a lead byte with fewer
/// continuation bytes than it announces, or stray continuation bytes).
fn split_slots(bytes: &[u8]) -> Vec<Slot> {
    let mut slots = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            slots.push(Slot::Char(b as char));
            i += 1;
            continue;
        }
        if !is_lead(b) {
            slots.push(Slot::Damaged {
                bytes: vec![b],
                len: 0,
            });
            i += 1;
            continue;
        }
        let len = sequence_len(b);
        let mut end = i + 1;
        while end < bytes.len() && end - i < len && is_continuation(bytes[end]) {
            end += 1;
        }
        let seq = &bytes[i..end];
        match std::str::from_utf8(seq).ok().and_then(|s| s.chars().next()) {
            Some(c) if seq.len() == len => slots.push(Slot::Char(c)),
            _ => slots.push(Slot::Damaged {
                bytes: seq.to_vec(),
                len,
            }),
        }
        i = end;
    }
    slots
}

/// Resolves damaged slots with doc terms; the rest become U+FFFD.
fn recover(slots: &[Slot]) -> (Vec<char>, Vec<String>, usize) {
    let mut chars: Vec<Option<char>> = slots
        .iter()
        .map(|s| match s {
            Slot::Char(c) => Some(*c),
            Slot::Damaged { .. } => None,
        })
        .collect();
    let mut recovered = Vec::new();
    let mut unrecovered = 0;
    for i in 0..slots.len() {
        if chars[i].is_some() {
            continue;
        }
        match find_term(slots, &chars, i) {
            Some((start, term)) => {
                for (k, c) in term.chars().enumerate() {
                    chars[start + k] = Some(c);
                }
                recovered.push(term.to_string());
            }
            None => unrecovered += 1,
        }
    }
    let text = chars
        .into_iter()
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect();
    (text, recovered, unrecovered)
}

/// The first doc term (longest first) that covers slot `i` and agrees with every slot it spans.
fn find_term(slots: &[Slot], resolved: &[Option<char>], i: usize) -> Option<(usize, &'static str)> {
    for term in terms_longest_first() {
        let term_chars: Vec<char> = term.chars().collect();
        for offset in 0..term_chars.len() {
            let Some(start) = i.checked_sub(offset) else {
                break;
            };
            let end = start + term_chars.len();
            if end > slots.len() {
                continue;
            }
            let fits =
                (start..end)
                    .zip(&term_chars)
                    .all(|(j, &t)| match (&resolved[j], &slots[j]) {
                        (Some(c), _) => *c == t,
                        (None, Slot::Damaged { bytes, len }) => compatible(t, bytes, *len),
                        (None, Slot::Char(_)) => false,
                    });
            if fits {
                return Some((start, term));
            }
        }
    }
    None
}

fn terms_longest_first() -> &'static [&'static str] {
    static SORTED: OnceLock<Vec<&'static str>> = OnceLock::new();
    SORTED.get_or_init(|| {
        let mut seen = BTreeSet::new();
        let mut terms: Vec<&'static str> = DOC_TERMS
            .iter()
            .copied()
            .chain(CORPUS_BIGRAMS.split_whitespace())
            .filter(|t| seen.insert(*t))
            .collect();
        // Stable: list order is kept among terms of equal length.
        terms.sort_by_key(|t| std::cmp::Reverse(t.chars().count()));
        terms
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn seed(prefix: &str) -> Vec<u8> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("specs/docs");
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("specs/docs")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        let path = entries
            .into_iter()
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
            })
            .expect("seed exists");
        std::fs::read(path).expect("read seed")
    }

    /// Mojibake the way the seed was made: UTF-8 bytes shown as cp1252, with `lost` bytes dropped.
    fn mojibake(text: &str, lost: &[u8]) -> String {
        let bytes: Vec<u8> = text.bytes().filter(|b| !lost.contains(b)).collect();
        let (s, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
        s.into_owned()
    }

    fn codes(d: &Decoded) -> Vec<&'static str> {
        d.repairs.iter().map(|r| r.code).collect()
    }

    #[test]
    fn plain_utf8_is_unchanged_and_unreported() {
        let text = "# 标题\n参数说明：self(aclTensor*)\n× café “x” ²\n";
        let d = decode(text.as_bytes());
        assert_eq!(d.text, text);
        assert!(d.repairs.is_empty(), "{:?}", d.repairs);
    }

    #[test]
    fn utf8_bom_is_stripped_and_reported() {
        let d = decode(b"\xEF\xBB\xBF# a\nb\n");
        assert_eq!(d.text, "# a\nb\n");
        assert_eq!(codes(&d), ["bom"]);
    }

    fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if bom {
            out.extend(if big_endian {
                [0xFE, 0xFF]
            } else {
                [0xFF, 0xFE]
            });
        }
        for unit in text.encode_utf16() {
            out.extend(if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        out
    }

    #[test]
    fn utf16_with_and_without_bom_is_decoded() {
        let text = "# aclnnFoo\n参数说明\n- self(aclTensor*): input\n";
        for big_endian in [false, true] {
            for bom in [false, true] {
                let d = decode(&utf16(text, big_endian, bom));
                assert_eq!(d.text, text, "be={big_endian} bom={bom}");
                assert!(codes(&d).contains(&"utf16"));
                assert_eq!(codes(&d).contains(&"bom"), bom);
            }
        }
    }

    #[test]
    fn nul_bytes_are_binary_and_replaced() {
        let d = decode(b"a\nb\0c\nplain text line\n");
        assert_eq!(d.text, "a\nb\u{FFFD}c\nplain text line\n");
        assert_eq!(d.repairs.len(), 1);
        assert_eq!((d.repairs[0].code, d.repairs[0].line), ("binary", 2));
    }

    #[test]
    fn invalid_utf8_is_replaced_with_its_line() {
        let d = decode(b"ok\nbad \xFF here\nok\n");
        assert_eq!(d.text, "ok\nbad \u{FFFD} here\nok\n");
        assert_eq!(d.repairs.len(), 1);
        assert_eq!((d.repairs[0].code, d.repairs[0].line), ("invalid-utf8", 2));
    }

    #[test]
    fn truncated_tail_is_reported_as_such() {
        let mut bytes = "a\n参数".as_bytes().to_vec();
        bytes.pop();
        let d = decode(&bytes);
        assert_eq!(d.text, "a\n参\u{FFFD}");
        assert_eq!((d.repairs[0].code, d.repairs[0].line), ("invalid-utf8", 2));
        assert!(d.repairs[0].message.contains("ends"), "{:?}", d.repairs);
    }

    #[test]
    fn many_bad_lines_are_capped() {
        let bytes: Vec<u8> = (0..50).flat_map(|_| b"\xFF\n".to_vec()).collect();
        let d = decode(&bytes);
        assert_eq!(d.repairs.len(), MAX_LISTED + 1);
        assert!(d.repairs[MAX_LISTED].message.contains("30 more"));
    }

    #[test]
    fn lossless_mojibake_is_repaired_line_by_line() {
        let original = "# 标题\n\n参数说明：数据类型支持FLOAT16\nplain\n";
        let text = mojibake(original, &[]);
        assert_ne!(text, original);
        let d = decode(text.as_bytes());
        assert_eq!(d.text, original);
        let lines: Vec<usize> = d
            .repairs
            .iter()
            .filter(|r| r.code == "mojibake-repaired")
            .map(|r| r.line)
            .collect();
        assert_eq!(lines, [1, 3]);
        assert!(!codes(&d).contains(&"bytes-recovered"));
    }

    #[test]
    fn lost_bytes_are_recovered_from_doc_terms() {
        // 训 = E8 AE AD loses the soft hyphen AD; 推 = E6 8E A8 loses 8E; 理 = E7 90 86 loses 90.
        let original = "Atlas 训练系列产品\nAtlas 推理系列产品\n";
        let text = mojibake(original, &[0xAD, 0x8E, 0x90, 0x81]);
        let d = decode(text.as_bytes());
        assert_eq!(d.text, original);
        assert!(codes(&d).contains(&"bytes-recovered"));
        assert!(!codes(&d).contains(&"mojibake-unrecovered"));
    }

    #[test]
    fn unknown_damaged_char_stays_replacement_and_is_reported() {
        // 鬯 = E9 AC AF: no doc term contains it, so its lost byte cannot be chosen.
        let text = mojibake("说明鬯\n", &[0xAC]);
        let d = decode(text.as_bytes());
        assert_eq!(d.text, "说明\u{FFFD}\n");
        let r = d
            .repairs
            .iter()
            .find(|r| r.code == "mojibake-unrecovered")
            .expect("reported");
        assert_eq!(r.line, 1);
    }

    #[test]
    fn seed_004_product_rows_tell_inference_from_training() {
        let d = decode(&seed("004"));
        let lines: Vec<&str> = d.text.lines().collect();
        let inference = lines
            .iter()
            .position(|l| l.contains("<term>Atlas 推理系列产品</term>"))
            .expect("inference row");
        let training = lines
            .iter()
            .position(|l| l.contains("<term>Atlas 训练系列产品</term>"))
            .expect("training row");
        assert!(inference < training);
        assert!(lines
            .iter()
            .any(|l| l.contains("Atlas A2 训练系列产品/Atlas A2 推理系列产品")));
        assert!(lines.iter().any(|l| l.starts_with("## 产品支持情况")));
        // 推 and 理 both lost a byte, 品 too; 产 survived; × is whole.
        assert!(
            lines[11].contains("<term>Atlas 200I/500 A2 推理产品</term>"),
            "{}",
            lines[11]
        );
        assert!(lines[11].contains('×'), "{}", lines[11]);
        for row in [inference, training] {
            assert!(lines[row].contains('√'), "{}", lines[row]);
            let repaired: Vec<&str> = d
                .repairs
                .iter()
                .filter(|r| r.line == row + 1)
                .map(|r| r.code)
                .collect();
            assert!(repaired.contains(&"mojibake-repaired"));
            assert!(repaired.contains(&"bytes-recovered"));
        }
    }

    #[test]
    fn seed_004_leaves_few_replacement_chars() {
        let d = decode(&seed("004"));
        let left = d.text.matches('\u{FFFD}').count();
        let lines = d.text.lines().filter(|l| l.contains('\u{FFFD}')).count();
        let unrecovered: Vec<usize> = d
            .repairs
            .iter()
            .filter(|r| r.code == "mojibake-unrecovered")
            .map(|r| r.line)
            .collect();
        println!("seed 004: {left} U+FFFD left on {lines} lines {unrecovered:?}");
        assert_eq!(unrecovered.len(), lines);
        assert!(left <= 7, "{left} U+FFFD left");
        assert!(!d.text.contains("äº§"), "unrepaired mojibake left");
    }

    #[test]
    fn seed_004_keeps_its_line_count() {
        let bytes = seed("004");
        let before = String::from_utf8_lossy(&bytes).split('\n').count();
        let d = decode(&bytes);
        assert_eq!(d.text.split('\n').count(), before);
    }

    #[test]
    fn other_seeds_decode_unchanged() {
        for prefix in ["000", "001", "002", "003"] {
            let bytes = seed(prefix);
            let d = decode(&bytes);
            assert_eq!(d.text.as_bytes(), &bytes[..], "seed {prefix}");
            assert!(d.repairs.is_empty(), "seed {prefix}: {:?}", d.repairs);
        }
    }

    fn corpus_docs() -> Option<Vec<PathBuf>> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
        if !root.is_dir() {
            println!("skipping: {} is absent", root.display());
            return None;
        }
        let mut docs = Vec::new();
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    if !path.ends_with("headers") {
                        stack.push(path);
                    }
                } else if path.extension().is_some_and(|e| e == "md") {
                    docs.push(path);
                }
            }
        }
        docs.sort();
        Some(docs)
    }

    #[test]
    fn corpus_docs_decode_unchanged() {
        let Some(docs) = corpus_docs() else { return };
        assert!(docs.len() > 100, "{} docs", docs.len());
        for path in docs {
            let bytes = std::fs::read(&path).expect("read corpus doc");
            let d = decode(&bytes);
            assert!(
                d.repairs.iter().all(|r| !r.code.starts_with("mojibake")),
                "{}: {:?}",
                path.display(),
                d.repairs
            );
            if std::str::from_utf8(&bytes).is_ok() && !bytes.starts_with(b"\xEF\xBB\xBF") {
                assert_eq!(d.text.as_bytes(), &bytes[..], "{}", path.display());
            }
        }
    }

    #[test]
    fn mojibake_repair_is_linear() {
        let line = mojibake("参数说明：数据类型支持训练推理产品。\n", &[0xAD]);
        let big = line.repeat(20_000);
        let start = std::time::Instant::now();
        let d = decode(big.as_bytes());
        assert_eq!(d.text.lines().count(), 20_000);
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_decode_without_panic_keeping_lines(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            let d = decode(&bytes);
            if !d.repairs.iter().any(|r| r.code == "utf16") {
                let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
                proptest::prop_assert_eq!(d.text.matches('\n').count(), newlines);
            }
        }

        #[test]
        fn mojibake_of_any_text_keeps_lines(text in "[a-z 参数说明产品训练推理、，。\n]{0,80}", lost in proptest::bool::ANY) {
            let garbled = mojibake(&text, if lost { &[0xAD, 0x8E, 0x90, 0x81] } else { &[] });
            let d = decode(garbled.as_bytes());
            proptest::prop_assert_eq!(d.text.matches('\n').count(), text.matches('\n').count());
            if !lost {
                proptest::prop_assert_eq!(d.text, text);
            }
        }
    }
}
