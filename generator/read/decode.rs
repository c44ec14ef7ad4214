//! Bytes to text: BOM, UTF-16, invalid UTF-8, and mojibake (UTF-8 read as Windows-1252 and saved
//! again, some bytes lost). Line structure is preserved so every later location stays true:
//! line N of the output is line N of the input.

use crate::diag::Code;
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
    /// `invalid-utf8`, `utf16`, `bom`, `legacy-encoding`, and the errors `binary` and
    /// `unknown-encoding`.
    pub code: Code,
    pub message: String,
}

impl Repair {
    /// Whether the doc cannot be read as it is (the rest are repairs worth a warning).
    pub fn is_error(&self) -> bool {
        matches!(self.code, Code::Binary | Code::UnknownEncoding)
    }

    fn new(line: usize, code: Code, message: impl Into<String>) -> Self {
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
    if let Some(text) = clean_utf8(bytes) {
        return Decoded {
            text: unix_line_ends(text.to_string()),
            repairs: Vec::new(),
        };
    }
    let mut repairs = Vec::new();
    let text = match detect_utf16(bytes) {
        Some((encoding, body, had_bom)) => {
            if had_bom {
                repairs.push(Repair::new(
                    1,
                    Code::Bom,
                    format!("{} BOM removed", encoding.name()),
                ));
            }
            repairs.push(Repair::new(
                1,
                Code::Utf16,
                format!("file is {}; decoded to UTF-8", encoding.name()),
            ));
            let (text, _) = encoding.decode_without_bom_handling(body);
            text.into_owned()
        }
        // Text in a legacy encoding has no NUL bytes; with them it is binary (reported below).
        None if !bytes.contains(&0) && !is_mostly_utf8(bytes) => decode_legacy(bytes, &mut repairs),
        None => {
            let body = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
                Some(rest) => {
                    repairs.push(Repair::new(1, Code::Bom, "UTF-8 BOM removed"));
                    rest
                }
                None => bytes,
            };
            let with_nuls = decode_utf8_lossy(body, &mut repairs);
            replace_nuls(with_nuls, &mut repairs)
        }
    };
    let text = unix_line_ends(repair_mojibake(&text, &mut repairs));
    Decoded { text, repairs }
}

/// A doc saved on Windows ends its lines in CRLF: the CR would stay in what is read from a line
/// (the call example's code, a prototype line quoted in a diagnostic). Line numbers do not move.
fn unix_line_ends(text: String) -> String {
    if text.contains("\r\n") {
        text.replace("\r\n", "\n")
    } else {
        text
    }
}

/// The text of a doc that needs no repair at all, which is almost every doc: valid UTF-8 without
/// BOM or NUL, and without the byte 0xC3. Mojibake starts with a cp1252 lead byte (0xC0-0xFF) read
/// as a character U+00C0-U+00FF, and each of those is encoded as 0xC3 plus one byte; CJK text
/// never contains 0xC3 (it is only ever the first byte of those characters).
fn clean_utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.starts_with(b"\xEF\xBB\xBF") || bytes.contains(&0) || bytes.contains(&0xC3) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
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

/// Whether invalid bytes are the exception (damage, lost bytes of mojibake) rather than the rule.
/// A doc in a legacy encoding has few valid UTF-8 sequences beyond ASCII and many invalid ones;
/// a damaged UTF-8 doc the other way round.
fn is_mostly_utf8(bytes: &[u8]) -> bool {
    let (mut valid, mut invalid) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        valid += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        invalid += usize::from(!chunk.invalid().is_empty());
    }
    invalid < 4 || valid >= invalid
}

/// Legacy CJK encodings a doc may come in; anything else chardetng guesses is refused rather
/// than read as garbage.
const LEGACY_CJK: &[&encoding_rs::Encoding] = &[
    encoding_rs::GBK,
    encoding_rs::GB18030,
    encoding_rs::BIG5,
    encoding_rs::SHIFT_JIS,
    encoding_rs::EUC_JP,
    encoding_rs::EUC_KR,
];

/// Decodes a doc that is not UTF-8: GB18030/GBK (common for Chinese text saved on Windows) and
/// the other CJK encodings chardetng recognizes are decoded and reported; others are an error.
fn decode_legacy(bytes: &[u8], repairs: &mut Vec<Repair>) -> String {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if !LEGACY_CJK.contains(&guess) {
        repairs.push(Repair::new(
            1,
            Code::UnknownEncoding,
            format!(
                "file is not UTF-8, UTF-16 or a Chinese encoding (it looks like {}); not read \
                 (convert it to UTF-8)",
                guess.name()
            ),
        ));
        return decode_utf8_lossy(bytes, &mut Vec::new());
    }
    // encoding_rs decodes GBK with the GB18030 decoder (WHATWG), four-byte sequences included.
    let (text, had_errors) = guess.decode_without_bom_handling(bytes);
    let name = if guess == encoding_rs::GBK {
        "GB18030/GBK"
    } else {
        guess.name()
    };
    if had_errors {
        // A real doc in that encoding decodes cleanly; bytes that do not are not text to guess at.
        repairs.push(Repair::new(
            1,
            Code::UnknownEncoding,
            format!("file is neither UTF-8 nor valid {name}; not read (convert it to UTF-8)"),
        ));
    } else {
        repairs.push(Repair::new(
            1,
            Code::LegacyEncoding,
            format!("file is {name}; decoded to UTF-8"),
        ));
    }
    text.into_owned()
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
                repairs.push(Repair::new(line, Code::InvalidUtf8, what));
            }
        }
    }
    if bad_lines > MAX_LISTED {
        repairs.push(Repair::new(
            last_bad_line,
            Code::InvalidUtf8,
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
                Code::Binary,
                format!("{nuls} NUL bytes replaced with U+FFFD (binary data?)"),
            ));
        }
    }
    if total > listed {
        repairs.push(Repair::new(
            1,
            Code::Binary,
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
    "可通过",
    "参与",
    "各参数",
    "特征图中",
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

/// The 300 most frequent runs of four and the 400 of three Chinese characters in the same
/// corpus: longer context, tried before the pairs.
const CORPUS_NGRAMS: &str = "\
    数据类型 系列产品 训练系列 练系列产 一段接口 第一段接 推理系列 理系列产 的数据类 \
    需要根据 公式中的 侧申请的 数据格式 计算流程 算子计算 子计算流 固定写法 包含了算 \
    含了算子 了算子计 接口定义 的接口定 根据具体 要根据具 口定义修 定义修改 参数说明 \
    具体参见 返回状态 回状态码 侧内存上 据类型不 对应公式 应公式中 约束说明 保持一致 \
    不在支持 推理产品 根据自己 据自己的 调用示例 两段式接 段式接口 在支持的 编译与运 \
    译与运行 运行样例 与运行样 类型支持 据类型支 支持的范 持的范围 计算出的 根据第一 \
    据第一段 段接口计 接口计算 口计算出 二段接口 执行任务 行任务的 第二段接 计算公式 \
    内存地址 指定执行 定执行任 由第一段 入参校验 功能说明 函数原型 完成入参 成入参校 \
    计算连续 下场景时 场景时报 景时报错 接口创建 示例代码 同步等待 产品支持 出现以下 \
    任务执行 务执行结 执行结束 支持情况 获取输出 非连续的 步等待任 等待任务 待任务执 \
    执行计算 以下场景 品支持情 取输出的 现以下场 必须先调 须先调用 返回需要 回需要在 \
    内存上的 存上的结 上的结果 算子分为 每个算子 个算子分 构造输入 输出的值 据类型为 \
    具体编译 体编译和 编译和执 译和执行 和执行过 执行过程 行过程请 过程请参 造输入与 \
    输入与输 入与输出 接口执行 程请参考 是空指针 确定性实 定性实现 接口获取 口执行计 \
    仅供参考 例代码如 代码如下 计算所需 定义构造 自己的实 己的实际 的接口自 接口自定 \
    口自定义 自定义构 资源初始 源初始化 范围之内 计算输入 使用说明 需要修改 要修改为 \
    修改为具 改为具体 为具体的 的范围之 默认确定 认确定性 侧数据拷 数据拷贝 据拷贝到 \
    接口完成 的执行器 获取计算 大小以及 算流程的 取计算所 流程的执 程的执行 口获取计 \
    小以及包 以及包含 确定性计 定性计算 及包含了 类型不在 结果拷贝 果拷贝至 的结果拷 \
    型不在支 据类型与 段接口完 口完成入 接口功能 不支持空 输入张量 查看源码 据类型需 \
    式中的输 据类型和 最后一维 中的输入 类型不一 输入数据 型不一致 张量列表 类型保持 \
    型保持一 输出张量 据类型保 类型需要 异构组件 和数据格 类型和数 型和数据 取值范围 \
    元素个数 的范围内 计算输出 计算结果 大于等于 据格式不 类型推导 推导关系 据类型推 \
    反向传播 是否支持 的维度数 互推导关 该参数中 参数中所 数中所有 型需要与 需要处理 \
    表示输出 自己的需 己的需要 的需要处 格式不在 式不在支 推导规则 表示进行 型推导规 \
    表示输入 缩放因子 可选输入 段接口会 接口会完 口会完成 入数据类 满足数据 足数据类 \
    会完成入 空指针时 量化模式 的最后一 当输入数 激活函数 入张量列 算子功能 维度数量 \
    小于等于 数据复制 为空指针 类型一致 运算的输 维度上的 据类型一 据格式与 入空指针 \
    其他数据 侧数据复 据复制到 的结果复 结果复制 果复制至 量化后的 维度超过 传入空指 \
    可选参数 支持取值 的最大值 满足约束 他数据类 支持范围 据类型时 算的输入 维度大于 \
    的取值范 当输入是 不满足约 输入和输 入和输出 当输入为 接口调用 在支持范 的维度不 \
    中的元素 的数据格 为其他数 每个元素 输入为其 入为其他 口调用示 量化场景 的元素个 \
    会转换为 类型不支 型不支持 的输出张 类型时不 持范围内 出的数据 后的数据 的输入张 \
    格式与入 式与入参 组成输出 数据类 据类型 系列产 列产品 段接口 训练系 练系列 \
    一段接 第一段 的数据 推理系 理系列 不支持 的接口 需要根 要根据 公式中 式中的 \
    申请的 侧申请 数据格 据格式 侧内存 计算流 算流程 执行器 返回码 子计算 算子计 \
    固定写 定写法 包含了 含了算 了算子 接口定 口定义 根据具 据具体 定义修 义修改 \
    返回值 参数说 数说明 具体参 体参见 状态码 返回状 回状态 确定性 初始化 内存上 \
    非连续 支持空 参数名 类型不 对应公 应公式 输出的 空指针 约束说 束说明 保持一 \
    持一致 支持的 在支持 不在支 根据自 计算输 推理产 理产品 的范围 自己的 据自己 \
    的结果 用示例 调用示 两段式 式接口 段式接 行计算 编译与 译与运 与运行 运行样 \
    行样例 计算出 的维度 类型支 型支持 持的范 需要与 算出的 根据第 据第一 接口计 \
    口计算 不一致 类型为 二段接 第二段 需要在 执行任 行任务 任务的 计算公 算公式 \
    定执行 内存地 存地址 指定执 由第一 能说明 入参校 参校验 功能说 函数原 数原型 \
    完成入 成入参 下场景 计算连 算连续 侧数据 场景时 景时报 时报错 接口创 口创建 \
    连续的 执行结 示例代 例代码 同步等 步等待 产品支 品支持 出现以 现以下 任务执 \
    务执行 行结束 取输出 支持情 持情况 获取输 先调用 再调用 等待任 待任务 传入的 \
    执行计 以下场 请参考 与输出 必须先 须先调 返回需 和执行 个算子 回需要 上的结 \
    性实现 存上的 算子分 子分为 每个算 构造输 造输入 出的值 编译和 具体编 体编译 \
    译和执 执行过 行过程 过程请 程请参 输入与 入与输 接口执 口执行 自定义 算子库 \
    是空指 定性实 的实际 接口获 口获取 仅供参 供参考 代码如 码如下 的输入 计算所 \
    算所需 定义构 义构造 己的实 接口自 口自定 算输入 资源初 源初始 范围之 围之内 \
    错误码 用说明 具体的 使用说 修改为 需要修 要修改 改为具 为具体 性计算 默认确 \
    认确定 拷贝到 数据拷 据拷贝 接口完 口完成 的执行 获取计 取计算 大小以 小以及 \
    流程的 程的执 以及包 及包含 定性计 型不在 拷贝至 结果拷 果拷贝 类型与 仅支持 \
    接口功 口功能 范围内 最后一 输入张 入张量 当输入 的输出 类型需 查看源 看源码 \
    中的输 类型和 于等于 对应的 表示输 和数据 不满足 后一维 计算的 输入数 型不一 \
    量列表 入数据 输入的 张量列 与入参 的梯度 类型保 型保持 输出张 出张量 值范围 \
    型需要 异构组 构组件 型和数 转换为 取值范 的元素 该参数 维度数 元素个 素个数 \
    与输入 的大小 矩阵乘 参数中 格式不 算结果 算输出 计算结 大于等 向传播 互推导 \
    个元素 类型推 型推导 选输入 推导关 导关系 最大值 可选输 个维度 反向传 维度为 \
    是否支 否支持 维度不 中所有 归一化 对输入 数中所 需要处 要处理 算的输 的需要 \
    必须为 维度大 示输出 的计算 己的需 的最大 式不在 推导规 导规则 运算的 维度上 \
    表示进 示进行 的取值 示输入 缩放因 放因子 的量化 输入为 接口会 口会完 会完成 \
    的长度 满足数 足数据 长度为 的最后 化后的 不等于 指针时 量化模 化模式 范围为 \
    入参数 场景下 激活函 活函数 的反向 将输入 算子功 子功能 度数量 指定的 第一维 \
    量化的 小于等 数据复 据复制 为空指 维度的 类型一 型一致 类型时 个输入 维度超 \
    函数的 度上的 的索引 取值为 选参数 和输出 格式与 需满足 其他数 入空指 他数据 \
    复制到 传入空 元素数 态量化 结果复 果复制 复制至 过程中 量化后 度超过 的位置 \
    正向输 支持取 可选参 持取值 输入是 只支持 满足约 足约束";

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

/// Bytes the mojibake pipeline drops: cp1252's five undefined bytes, and Ž ž and the soft hyphen,
/// which scrapers strip. Measured on seed 004 against its original (`ops-nn` corpus): these
/// bytes never survive, every other byte does.
const DROPPED: &[u8] = &[0x81, 0x8D, 0x8E, 0x8F, 0x90, 0x9D, 0x9E, 0xAD];

/// Whether `c` could be the character a damaged sequence came from: same lead byte, same
/// length, and the surviving bytes appear in order. `strict` also requires every missing byte
/// to be one the pipeline drops.
fn compatible(c: char, bytes: &[u8], len: usize, strict: bool) -> bool {
    let mut buf = [0u8; 4];
    let full = c.encode_utf8(&mut buf).as_bytes();
    if full.len() != len || full.first() != bytes.first() {
        return false;
    }
    let mut kept = bytes[1..].iter().peekable();
    for f in &full[1..] {
        if kept.peek() == Some(&f) {
            kept.next();
        } else if strict && !DROPPED.contains(f) {
            return false;
        }
    }
    kept.next().is_none()
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
                    Code::MojibakeRepaired,
                    "mojibake (UTF-8 read as Windows-1252) repaired",
                ));
                if !fixed.recovered.is_empty() {
                    repairs.push(Repair::new(
                        n,
                        Code::BytesRecovered,
                        format!(
                            "lost bytes recovered from doc terms: {}",
                            fixed.recovered.join(", ")
                        ),
                    ));
                }
                if fixed.unrecovered > 0 {
                    repairs.push(Repair::new(
                        n,
                        Code::MojibakeUnrecovered,
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
    // A lead byte re-encodes from U+00C2-U+00F4, which UTF-8 writes as 0xC3 plus one byte: a
    // line without 0xC3 cannot qualify, and the byte search is far cheaper than the char walk.
    if !line.as_bytes().contains(&0xC3) {
        return false;
    }
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
        // First a term whose missing bytes are all ones the pipeline drops, preferring one with
        // context on both sides of the slot; then, since any continuation byte may be lost, a
        // term of two Chinese characters or more with any byte.
        let found = find_term(slots, &chars, i, true, true)
            .or_else(|| find_term(slots, &chars, i, true, false))
            .or_else(|| find_term(slots, &chars, i, false, false));
        match found {
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
fn find_term(
    slots: &[Slot],
    resolved: &[Option<char>],
    i: usize,
    strict: bool,
    interior: bool,
) -> Option<(usize, &'static str)> {
    let Slot::Damaged { bytes, .. } = &slots[i] else {
        return None;
    };
    let terms = terms_longest_first();
    for &(t, offset) in term_index().candidates(bytes) {
        let (term, term_chars) = &terms[t];
        // Punctuation gives too little context to accept a byte the pipeline does not drop.
        if !strict && (term_chars.len() < 2 || term_chars.iter().any(|c| !is_cjk(*c))) {
            continue;
        }
        let Some(start) = i.checked_sub(offset) else {
            continue;
        };
        let end = start + term_chars.len();
        if end > slots.len() || (interior && (start == i || end == i + 1)) {
            continue;
        }
        let fits = (start..end)
            .zip(term_chars)
            .all(|(j, &t)| match (&resolved[j], &slots[j]) {
                (Some(c), _) => *c == t,
                (None, Slot::Damaged { bytes, len }) => compatible(t, bytes, *len, strict),
                (None, Slot::Char(_)) => false,
            });
        if fits {
            return Some((start, term));
        }
    }
    None
}

fn is_cjk(c: char) -> bool {
    ('\u{4E00}'..='\u{9FFF}').contains(&c)
}

/// (term, offset) pairs whose character at `offset` could fill a damaged slot, keyed by the
/// slot's surviving bytes, so each slot checks a handful of terms instead of all of them.
#[derive(Default)]
struct TermIndex {
    /// By lead byte and one surviving continuation byte.
    by_pair: std::collections::HashMap<(u8, u8), Vec<(usize, usize)>>,
    /// By lead byte alone, for a slot that kept nothing else.
    by_lead: std::collections::HashMap<u8, Vec<(usize, usize)>>,
}

impl TermIndex {
    fn candidates(&self, bytes: &[u8]) -> &[(usize, usize)] {
        let found = match bytes {
            [lead, first, ..] => self.by_pair.get(&(*lead, *first)),
            [lead] => self.by_lead.get(lead),
            [] => None,
        };
        found.map_or(&[], Vec::as_slice)
    }
}

fn term_index() -> &'static TermIndex {
    static INDEX: OnceLock<TermIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = TermIndex::default();
        // Terms are visited in priority order, so every bucket stays in priority order.
        for (t, (_, chars)) in terms_longest_first().iter().enumerate() {
            for (offset, c) in chars.iter().enumerate() {
                let mut buf = [0u8; 4];
                let encoded = c.encode_utf8(&mut buf).as_bytes();
                let Some((&lead, rest)) = encoded.split_first() else {
                    continue;
                };
                index.by_lead.entry(lead).or_default().push((t, offset));
                let distinct: BTreeSet<u8> = rest.iter().copied().collect();
                for b in distinct {
                    index
                        .by_pair
                        .entry((lead, b))
                        .or_default()
                        .push((t, offset));
                }
            }
        }
        index
    })
}

fn terms_longest_first() -> &'static [(&'static str, Vec<char>)] {
    static SORTED: OnceLock<Vec<(&'static str, Vec<char>)>> = OnceLock::new();
    SORTED.get_or_init(|| {
        let mut seen = BTreeSet::new();
        let mut terms: Vec<(&'static str, Vec<char>)> = DOC_TERMS
            .iter()
            .copied()
            .chain(CORPUS_NGRAMS.split_whitespace())
            .chain(CORPUS_BIGRAMS.split_whitespace())
            .filter(|t| seen.insert(*t))
            .map(|t| (t, t.chars().collect()))
            .collect();
        // Stable: list order is kept among terms of equal length.
        terms.sort_by_key(|(_, chars)| std::cmp::Reverse(chars.len()));
        terms
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::seed;
    use std::path::{Path, PathBuf};

    /// Mojibake the way the seed was made: UTF-8 bytes shown as cp1252, with `lost` bytes dropped.
    fn mojibake(text: &str, lost: &[u8]) -> String {
        let bytes: Vec<u8> = text.bytes().filter(|b| !lost.contains(b)).collect();
        let (s, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
        s.into_owned()
    }

    fn codes(d: &Decoded) -> Vec<&'static str> {
        d.repairs.iter().map(|r| r.code.as_str()).collect()
    }

    #[test]
    fn windows_line_ends_are_read_as_unix_ones_on_the_same_lines() {
        let d = decode("# 标题\r\n\r\n```cpp\r\nint x;\r\n```\r\n".as_bytes());
        assert_eq!(d.text, "# 标题\n\n```cpp\nint x;\n```\n");
        assert!(d.repairs.is_empty());
        let bom = decode(b"\xEF\xBB\xBFa\r\nb");
        assert_eq!(bom.text, "a\nb");
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
    fn gb18030_and_gbk_docs_are_detected_and_decoded() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/specs/docs/000-aclnnAdaptiveAvgPool3dBackward.txt"
        );
        let text = std::fs::read_to_string(path).expect("seed doc");
        for encoding in [encoding_rs::GB18030, encoding_rs::GBK] {
            let (bytes, _, unmappable) = encoding.encode(&text);
            assert!(!unmappable);
            let d = decode(&bytes);
            assert_eq!(d.text, text, "{}", encoding.name());
            assert_eq!(codes(&d), ["legacy-encoding"], "{:?}", d.repairs);
            assert!(!d.repairs[0].is_error());
        }
    }

    #[test]
    fn a_doc_in_another_legacy_encoding_is_refused_not_read_as_garbage() {
        let text = "Résumé des paramètres: entrée, sortie, déjà vérifiée. ".repeat(20);
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let d = decode(&bytes);
        assert!(
            d.repairs
                .iter()
                .any(|r| r.code == "unknown-encoding" && r.is_error()),
            "{:?}",
            d.repairs
        );
    }

    #[test]
    fn random_high_bytes_are_never_read_as_a_chinese_doc() {
        // Bytes chardetng may take for GBK but that do not decode cleanly are refused.
        let bytes: Vec<u8> = (0..4000u32)
            .map(|i| (0x80 + (i * 37 % 0x7F)) as u8)
            .collect();
        let d = decode(&bytes);
        assert!(d.repairs.iter().any(Repair::is_error), "{:?}", d.repairs);
    }

    #[test]
    fn damaged_utf8_stays_utf8() {
        // A few invalid bytes in a UTF-8 doc are damage to repair, not another encoding.
        let mut bytes = "参数说明：数据类型支持FLOAT16、FLOAT32。\n"
            .repeat(10)
            .into_bytes();
        for i in [3, 40, 90, 200, 300] {
            bytes[i] = 0xFF;
        }
        let d = decode(&bytes);
        assert!(codes(&d).contains(&"invalid-utf8"), "{:?}", d.repairs);
        assert!(!codes(&d).contains(&"legacy-encoding"));
    }

    #[test]
    fn nul_bytes_are_binary_and_replaced() {
        let d = decode(b"a\nb\0c\nplain text line\n");
        assert_eq!(d.text, "a\nb\u{FFFD}c\nplain text line\n");
        assert_eq!(d.repairs.len(), 1);
        assert_eq!(
            (d.repairs[0].code.as_str(), d.repairs[0].line),
            ("binary", 2)
        );
    }

    #[test]
    fn invalid_utf8_is_replaced_with_its_line() {
        let d = decode(b"ok\nbad \xFF here\nok\n");
        assert_eq!(d.text, "ok\nbad \u{FFFD} here\nok\n");
        assert_eq!(d.repairs.len(), 1);
        assert_eq!(
            (d.repairs[0].code.as_str(), d.repairs[0].line),
            ("invalid-utf8", 2)
        );
    }

    #[test]
    fn truncated_tail_is_reported_as_such() {
        let mut bytes = "a\n参数".as_bytes().to_vec();
        bytes.pop();
        let d = decode(&bytes);
        assert_eq!(d.text, "a\n参\u{FFFD}");
        assert_eq!(
            (d.repairs[0].code.as_str(), d.repairs[0].line),
            ("invalid-utf8", 2)
        );
        assert!(d.repairs[0].message.contains("ends"), "{:?}", d.repairs);
    }

    #[test]
    fn many_bad_lines_are_capped() {
        // Damaged UTF-8: every line keeps its valid characters around the bad byte.
        let bytes: Vec<u8> = (0..50)
            .flat_map(|_| "参数\u{FF}".bytes().take(6).chain(*b"\xFF\n"))
            .collect();
        let d = decode(&bytes);
        assert_eq!(d.repairs.len(), MAX_LISTED + 1, "{:?}", d.repairs);
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
                .map(|r| r.code.as_str())
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
        assert!(left <= 8, "{left} U+FFFD left");
        assert!(!d.text.contains("äº§"), "unrepaired mojibake left");
    }

    #[test]
    fn seed_004_prefers_bytes_the_pipeline_drops() {
        // 像 (E5 83 8F) lost 8F; 元 (E5 85 83) would also fit "E5 83" if any byte could be lost.
        // Likewise 再 (8D lost) vs 将, and 不 (8D) vs 为.
        let d = decode(&seed("004"));
        let lines: Vec<&str> = d.text.lines().collect();
        assert!(lines[32].contains("像素值"), "{}", lines[32]);
        assert!(lines[37].contains("再调用"), "{}", lines[37]);
        assert!(d.text.contains("数据格式不在支持的范围之内"));
        assert!(!d.text.contains("元素值") && !d.text.contains("将调用"));
    }

    /// Seed 004 is the mojibake of CANN's ops-nn doc of the op (with a few edits of its own).
    /// Every line whose lost bytes were recovered must read as in that original.
    #[test]
    fn seed_004_recoveries_match_the_original_doc() {
        let original = Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../shared/corpus/ops-nn/docs/pooling_avg_pool3_d_grad_docs_aclnnAvgPool2dBackward.md",
        );
        let Ok(original) = std::fs::read_to_string(&original) else {
            println!("skipping: {} is absent", original.display());
            return;
        };
        let original: BTreeSet<&str> = original.lines().map(str::trim).collect();
        let d = decode(&seed("004"));
        let lines: Vec<&str> = d.text.lines().collect();
        let recovered: BTreeSet<usize> = d
            .repairs
            .iter()
            .filter(|r| r.code == "bytes-recovered")
            .map(|r| r.line)
            .collect();
        // Lines the seed edited besides the mojibake (table layout, wording), by content.
        // Lines the seed edited besides the mojibake (a markdown product table, wording), and
        // lines with a character left unrecovered.
        let edited = [
            "数值必须大于0",
            "（固定写法）",
            "/context/",
            "<td>Atlas 推理系列产品、",
            "<term>cubeMathType</term>",
            "-  **",
            "\u{FFFD}",
        ];
        let mut checked = 0;
        let mut differing: Vec<String> = Vec::new();
        for n in recovered {
            let line = lines[n - 1].trim();
            if line.starts_with('|') || edited.iter().any(|e| line.contains(e)) {
                continue;
            }
            checked += 1;
            if !original.contains(line) {
                differing.push(format!("{n}: {line}"));
            }
        }
        assert!(
            differing.is_empty(),
            "differ from the original:\n{}",
            differing.join("\n")
        );
        println!("seed 004: {checked} recovered lines match the original");
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn strict_compatibility_requires_dropped_bytes() {
        // 训 = E8 AE AD: AD is a dropped byte.
        assert!(compatible('训', &[0xE8, 0xAE], 3, true));
        // 元 = E5 85 83: the missing 85 is not a byte the pipeline drops.
        assert!(compatible('元', &[0xE5, 0x83], 3, false));
        assert!(!compatible('元', &[0xE5, 0x83], 3, true));
        assert!(!compatible('训', &[0xE8, 0xAE], 2, false));
        assert!(!compatible('训', &[0xE7, 0xAE], 3, false));
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
                } else if path.extension().is_some_and(|e| e == "md")
                    && path.parent().is_some_and(|p| p.ends_with("docs"))
                {
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
                d.repairs
                    .iter()
                    .all(|r| !r.code.as_str().starts_with("mojibake")),
                "{}: {:?}",
                path.display(),
                d.repairs
            );
            if let Ok(text) = std::str::from_utf8(&bytes) {
                if !bytes.starts_with(b"\xEF\xBB\xBF") {
                    // Six corpus docs end some lines in CRLF: only those CRs go.
                    assert_eq!(d.text, text.replace("\r\n", "\n"), "{}", path.display());
                }
            }
        }
    }

    /// Every corpus doc garbled the way seed 004 was (cp1252 mojibake, the `DROPPED` bytes
    /// lost), then decoded: how many damaged characters come back right, stay U+FFFD, or come
    /// back wrong.
    #[test]
    fn corpus_mojibake_recovery_figures() {
        let Some(docs) = corpus_docs() else { return };
        let (mut damaged, mut right, mut unrecovered, mut wrong, mut misaligned) = (0, 0, 0, 0, 0);
        let mut confusions = std::collections::BTreeMap::new();
        for path in &docs {
            let original = std::fs::read_to_string(path).expect("corpus doc is UTF-8");
            let d = decode(mojibake(&original, DROPPED).as_bytes());
            for (o, r) in original.lines().zip(d.text.lines()) {
                if o.chars().count() != r.chars().count() {
                    misaligned += 1;
                    continue;
                }
                for (oc, rc) in o.chars().zip(r.chars()) {
                    let mut buf = [0u8; 4];
                    if !oc
                        .encode_utf8(&mut buf)
                        .bytes()
                        .any(|b| DROPPED.contains(&b))
                    {
                        continue;
                    }
                    damaged += 1;
                    if oc == rc {
                        right += 1;
                    } else if rc == char::REPLACEMENT_CHARACTER {
                        unrecovered += 1;
                    } else {
                        wrong += 1;
                        *confusions.entry((oc, rc)).or_insert(0usize) += 1;
                    }
                }
            }
        }
        println!(
            "corpus mojibake: {} docs, {damaged} damaged chars: {right} recovered, \
             {unrecovered} U+FFFD, {wrong} wrong; {misaligned} lines not repaired",
            docs.len()
        );
        let mut top: Vec<_> = confusions.into_iter().collect();
        top.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        println!(
            "top confusions (original, decoded): {:?}",
            &top[..top.len().min(10)]
        );
        assert!(damaged > 10_000, "{damaged}");
        // The terms come from this corpus, so these rates are in-sample.
        assert!(
            right * 100 >= damaged * 90,
            "recovered {right} of {damaged}"
        );
        assert!(wrong * 100 <= damaged * 2, "wrong {wrong} of {damaged}");
    }

    /// Its speed on 10 MB is measured by the corpus benchmark; here, that every line comes back.
    #[test]
    fn many_mojibake_lines_are_all_repaired() {
        let line = mojibake("参数说明：数据类型支持训练推理产品。\n", &[0xAD]);
        let big = line.repeat(20_000);
        let d = decode(big.as_bytes());
        assert_eq!(d.text.lines().count(), 20_000);
        assert!(d
            .text
            .lines()
            .all(|l| l == "参数说明：数据类型支持训练推理产品。"));
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
