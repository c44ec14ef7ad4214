//! The patterns the recognizer matches clauses with (compiled on first use).

use crate::rules::text::re;

re!(
    TAIL,
    r"[，,]?\s*(?:则)?返回\s*\d+.*$|[，,]?\s*报错.*$|(?:的)?情况下?不满足要求$|(?:的)?时(?:候)?$"
);
// "如果传入参数类型为aclTensor且其数据类型…": a lead-in that means every tensor of the op.
re!(
    EVERY_TENSOR_LEAD,
    r"^(?:如果|若)?\s*传入(?:的)?参数(?:类型)?为\s*aclTensor(?:\s*或\s*aclTensorList)?\s*(?:且其|且|[，,]\s*)"
);
re!(
    EXCLUDED,
    r"[，,]?\s*(?:但)?对(.+?)(?:无此校验|不做此校验|不校验|不做校验)"
);
re!(
    NON_NULL_WHEN,
    r"^(?:(?:当|若|如果)([^，,。；]*?)(?:不为空指针|不是空指针|非空指针|不为空|不是空|非空|存在)(?:时)?(?:[，,]\s*|且)|([A-Za-z_][A-Za-z0-9_]*(?:\s*[、和与或,，]\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:不为空指针|不是空指针|非空指针|不为空|不是空|非空|存在输入|存在)(?:时[，,]\s*|且))"
);
re!(
    OPTIONAL_NOTE,
    r"[（(]\s*(?:非空时|存在时|若存在|如果存在|如存在|可选|非空)\s*[）)]"
);
// "saveMean（训练场景下）", "deqScale（m小于64时）": a name the row speaks of only under a condition.
re!(
    SCOPED_NAME,
    r"([A-Za-z_][A-Za-z0-9_]*)\s*[（(]([^（）()]{1,30}?(?:场景|时|模式|情况)[^（）()]{0,4})[）)]\s*(?:[、，,]|或者|或|和|及)?"
);
// "x1或x2，的shape": a list separator left before what the list is about.
re!(DANGLING_SEPARATOR, r"[、，,]\s*(的|是|为|shape|数据类型)");
re!(
    CONDITIONAL,
    r"当|如果|若|为(?:True|true|False|false)|场景下.|情况下."
);
re!(
    PREDICATE,
    r"不|无法|空指针|超过|超出|大于|小于|>|<|等于|非|广播|broadcast|越界|无效|错误|为0|为空|存在|没有"
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
re!(NULL_WORD, r"空指针|nullptr|NULL|null|必选参数(?:为|是)空");
// "传入的bias不是空指针": the pointer must be null, which `NotNull` does not say.
re!(
    MUST_BE_NULL,
    r"(?:不是|不为|非)\s*(?:空指针|nullptr|NULL|null)"
);
// "batch1@batch2": a matrix product of two parameters.
re!(
    MATMUL_OPERAND,
    r"[A-Za-z0-9_]+\s*@\s*[A-Za-z_][A-Za-z0-9_]*"
);
// "不为-1.0且…", "数据类型不为FLOAT32且与x的数据类型不一致": one value excepted from what follows.
re!(
    VALUE_EXCEPTION,
    r"(?:不为|不等于|不是)\s*(?:-?\d+(?:\.\d+)?|[A-Z][A-Z0-9_]*\d[A-Z0-9_]*)\s*且"
);
re!(
    PRODUCT_UNSUPPORTED,
    r"不支持的(?:产品|平台|芯片)|不在支持(?:范围内)?的(?:平台|产品|芯片)|不支持(?:该|当前)(?:产品|平台|芯片)|(?:产品型号|产品|平台)\s*(?:不支持|不在支持)|(?:硬件平台|处理器|芯片|SocVersion)\s*(?:不是|不支持|不在)"
);
re!(
    ELEMENT_COUNT,
    r"(?i)((?:(?:depth|height|width|[dhw])\s*\*\s*)+(?:depth|height|width|[dhw]))\s*(?:>|大于|超过)\s*(?:max\s*)?int32"
);
re!(
    FRACTION,
    r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:超过|大于)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:对应位置)?的\s*(\d+)\s*/\s*(\d+)"
);
re!(BROADCAST, r"广播|broadcast");
// The shape broadcasting gives, as opposed to whether tensors broadcast at all.
re!(
    BROADCAST_RESULT,
    r"(?i)(?:广播|broadcast)\s*(?:后|之后|以后|的?结果)"
);
// "padding的数值中存在小于0或者大于kernelSize/2的值", "padding中存在小于0或者大于kernelSize/2的数值",
// "padding的值不在[0, kernelSize/2]的范围内".
re!(
    PADDING_BOUNDS,
    r"^([A-Za-z_][A-Za-z0-9_]*)(?:的数值中|中)存在小于0或者?大于([A-Za-z_][A-Za-z0-9_]*)(?:\s*/\s*(\d+))?(?:的(?:值|数值))?$|^([A-Za-z_][A-Za-z0-9_]*)(?:的(?:元素值|数值|值))?不在\s*[\[［]\s*0\s*[,，]\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:/\s*(\d+))?\s*[\]］]\s*的?范围内?$"
);
// The values of a list's elements, not its length: "dilation中的元素数值不满足要求".
re!(LIST_VALUES, r"元素值|元素数值|数值|的值|取值");
re!(ONE_WAY, r"单向|到|\bto\b");
// "数据类型不为INT64", "数据类型不是FLOAT16或FLOAT32", "dtype必须为BOOL": the dtypes a row names.
re!(
    STATED_DTYPES,
    r"(?i)(?:数据类型|dtype)\s*(?:不为|不是|不等于|必须为|必须是|只能为|只能是|需为|需要为|应为|仅支持|只支持)\s*([A-Za-z][A-Za-z0-9_]*(?:\s*(?:、|,|，|/|或者|或|和)\s*[A-Za-z][A-Za-z0-9_]*)*)\s*(?:类型)?\s*$"
);
re!(DTYPE_LIST_SEP, r"\s*(?:、|,|，|/|或者|或|和)\s*");
// "不在支持的范围之内", "不在支持范围内": the range the parameter table states.
re!(SUPPORTED_RANGE, r"支持的?范围");
re!(HW_ONLY, r"仅支持\s*HW|HW维度");
re!(PROMOTION, r"推导|转换|互推|可转");
re!(EMPTY_TENSOR, r"空[Tt]ensor|空张量");
re!(
    NOT_EITHER_EMPTY,
    r"(?:不为|不是).+或(?:者)?\s*(?:空[Tt]ensor|空张量)"
);
// "out的shape不等于self根据dim拆分后的shape": a shape computed from another, not that shape.
// An integer list that holds a size (`outputSize`), not dims to act on.
re!(SIZE_NAME, r"(?i)size|shape");
re!(DERIVED_SHAPE, r"后的\s*(?:shape|形状)|推导|[Ii]nfer");
// "out的shape和self的batch大小不一致": a part of a shape (the dims before a matrix's last two),
// which a whole-shape equality would misread.
re!(
    PART_OF_SHAPE,
    r"(?i)batch\s*(?:大小|维|轴|size)?|批(?:大小|维度)"
);
// "self的shape在C、H、W的某个轴为0": particular named axes, not every dim.
re!(
    NAMED_AXES,
    r"[NCDHWL]\s*[、,，和]\s*[NCDHWL]|除.{0,8}(?:以外|外)|[NCDHWL]\s*(?:轴|维)"
);
re!(DTYPE, r"数据类型|dtype|类型");
re!(FORMAT, r"(?i)数据格式|格式|format");
re!(
    DIM_VALUE,
    r"某(?:一|个)?维|任意一维|任一维|某(?:一|个)?轴|维度值|每一维|每个维度|各维度|shape中存在|shape中(?:不能|不可以|不应)?(?:有|含有|存在)\s*0|存在.*?(?:小于|<)\s*=?\s*0|数值中存在"
);
re!(
    RANK,
    r"维数|维度|rank|\d+\s*维|shape\s*dim|的dim|dim数|\d\s*D\s*(?:/|[Tt]ensor)"
);
re!(WHEN_SUFFIX, r"(?:为|是)\s*[A-Za-z0-9_]+\s*时$");
re!(
    DIM_SIZE,
    r"维度上|对应维度|第.{1,3}(?:个)?维|最后一维|最后两维|倒数第.{1,2}维|[CHWDN]轴|(?i:channel)轴|通道|尾轴|非dim轴|轴长|整除|倍数|偶数|[前后](?:几|\s*[nN]\s*(?:-\s*\d+)?|\s*\d+)\s*(?:个)?维|\[\s*-?\d*\s*:\s*-?\d*\s*\]"
);
re!(VALUE_WORD, r"值|取值|数值");
re!(
    AXIS_RANGE,
    r"越界|超出.*维度范围|不在.*维度范围|(?:超过|超出|不在)\s*\[\s*-|(?:超过|超出).*(?:维度数|维数)"
);
re!(
    AXIS_WORDS,
    r"维度数量|维度范围|维数|\.dim\(|dim最大值|的维度|维度|rank"
);
re!(
    SET_VALUES,
    r"\{\s*(-?\d+(?:\s*[,，、]\s*-?\d+)*)\s*\}|非\s*(-?\d+(?:\s*[,，、]\s*-?\d+)*)|(-?\d+(?:\s*/\s*-?\d+)+)|不在\s*(-?\d+(?:\s*(?:[,，、]|和|与|或)\s*-?\d+)+)\s*(?:这几个值|范围|之)?内?"
);
re!(SHAPE, r"(?:^|[^A-Za-z0-9_])(?i:shape)|形状|尺寸");
re!(LENGTH, r"长度|元素个数|元素数量|size");
re!(
    MISMATCH,
    r"不一致|不同|不(?:是)?(?:完全)?相同|不匹配|不相等|不一样|不等$|不等于\s*(?:[^\d\s-]|$)|(?:需要|应|必须|要)(?:与|和).*(?:一致|相同)"
);
re!(
    OUT_OF_RANGE,
    r"不在|不支持|不满足|不符合|不是|不为|不等于|超过|超出|大于|小于|无效|非法|错误|越界|不合法|不正确|不对|>|<"
);
re!(
    RANK_NUMBERS,
    r"(不等于|不是|不为|不在|不大于|不超过|不小于|小于等于|大于等于|超过|超出|大于|小于|不支持|非|>|<)\s*([\[(]?\s*\d+\s*(?:维|D)?(?:\s*(?:或者|或|、|,|，|和|-|~|到|/)\s*\d+\s*(?:维|D)?)*\s*[\])]?)"
);
// A note in parentheses, in words ("(stride长度为0时，…)"); "rank(updates)" is no note.
re!(NOTE_IN_PARENS, r"\([^()]*[^\x00-\x7F][^()]*\)|（[^（）]*）");
re!(
    PARTICULAR_DIMS,
    r"第.{1,3}(?:个)?维|最后一维|最后两维|倒数第.{1,2}维|[前后](?:几|\s*[nN]|\s*\d+)\s*(?:个)?维"
);
re!(
    RANK_ARITHMETIC,
    r"(?:维度数|维数|维度|rank|dim\(\))\s*(?:[+\-]|加|减)\s*\d"
);
// "rois需为2维", "x必须是2-4维": the row states the ranks allowed, not the violation.
re!(
    REQUIRED_RANK,
    r"(?:需|需要|必须|应|应该|只能|仅能)(?:为|是)\s*(\d+\s*(?:维|D)?(?:\s*(?:或者|或|、|,|，|和|-|~|到)\s*\d+\s*(?:维|D)?)*)\s*(?:维|D)"
);
re!(
    LOWER_ZERO,
    r"小于\s*0|<\s*0|为负|不满足\s*(?:≥|>=|大于等于)\s*0"
);
re!(
    NOT_POSITIVE,
    r"不大于\s*0|小于等于\s*0|<=\s*0|不为正|不是正|等于\s*0|为\s*0"
);
// A sign condition proper; "等于0"/"为0" alone excludes the one value 0, which for a dim size
// (never negative) is the same as "not positive" but for a value is not.
re!(
    SIGN_NOT_POSITIVE,
    r"不大于\s*0|小于等于\s*0|<=\s*0|不为正|不是正"
);
// "out的shape中不能有0", "shape中存在0": a dim of 0 (for a tensor, whose dims are never negative,
// the sign condition).
re!(ZERO_DIM, r"(?:存在|有|含有)\s*0(?:$|[^0-9.])");
re!(
    INLINE_RANGE,
    r"[\[［]\s*(-?\d+)\s*[,，]\s*(-?\d+)\s*[\]］]|(-?\d+)\s*(?:~|～|到|至)\s*(-?\d+)"
);
re!(
    WHEN_PREFIX,
    r"^(?:当|若|如果)?\s*(?:参数|属性|输入)?\s*([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?(?:的值|的取值)?\s*(不为|不等于|不是|!=|为|是|等于|==|=)\s*(true|false|True|False|TRUE|FALSE|-?\d+(?:\s*(?:或者|或|、)\s*-?\d+)*|[A-Za-z]+)\s*(?:时)?\s*(?:[，,]\s*(?:且|则)?|且)"
);
// "当quantMode为static时，", "当量化模式为动态，即输入quantMode的值为"dynamic"时，",
// "fusedOpType为"add"、"mul"时，": a string attribute's values (quoted or bare), read by
// `strip_when_str_prefix` where the attribute is a `char*`.
re!(
    WHEN_STR_PREFIX,
    r#"^(?:(?:当|若|如果)[^，,。；"“]*[，,]\s*即\s*)?(?:当|若|如果)?\s*(?:参数|属性|输入)?\s*([A-Za-z_][A-Za-z0-9_]*)(?:的值|的取值)?\s*(不为|不等于|不是|!=|为|是|等于|==|=)\s*((?:"[^"]*"|“[^”]*”|'[^']*'|[A-Za-z][A-Za-z0-9_]*)(?:\s*(?:或者|或|、|,)\s*(?:"[^"]*"|“[^”]*”|'[^']*'|[A-Za-z][A-Za-z0-9_]*))*)\s*(?:时|的时候)?\s*(?:[，,]\s*(?:且|则)?|且)"#
);
re!(
    STR_VALUE,
    r#""([^"]*)"|“([^”]*)”|'([^']*)'|([A-Za-z][A-Za-z0-9_]*)"#
);
// "如果pad中存在正数，则", "当dims中存在负数时，": some element of an integer list attribute in a
// range, read by `strip_any_elem_prefix`.
re!(
    WHEN_ANY_ELEM_PREFIX,
    r"^(?:当|若|如果)?\s*(?:参数|属性|输入)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:的值|的数值|的取值)?\s*中\s*(?:存在|有|含有|包含)\s*(正数|正值|负数|负值|非正数|非负数|0)\s*(?:时|的时候)?\s*(?:[，,]\s*(?:且|则)?|且)"
);
re!(
    NO_SUBJECT_ASPECT,
    r"^(?:传入)?(?:的)?(?:[Tt]ensor中|输入的?)?(?:数据类型|数据格式|shape|维度|任意维度|不支持空)"
);
re!(NUMEL, r"元素个数|元素数量|元素总数");
// A leading "…时，" that no prefix reader took.
// "x为BFLOAT16，weight为FLOAT32时，…": a condition of several comma-separated parts (each an
// argument's value) scopes the clause after it too.
re!(
    UNREAD_CONDITION,
    r"^[^，,。；]*?时\s*[，,]|^[^。；]*?[，,][^，,。；]*?(?:为|是)[^，,。；]*?时\s*[，,]"
);
// "input和output数据类型不一致；transposed=false时，支持input和output数据类型不一致": a later
// sentence that allows, under a condition, what the row rejects.
re!(
    ALLOWED_UNDER_CONDITION,
    r"[。；]\s*[^。；]*?时\s*[，,]\s*(?:也|仍)?(?:支持|允许|可以|不会|不报错)[^。；]*"
);
// "y1Out和y2Out都为有效输出时": presence, which every rule already presumes (a null skips it).
re!(PRESENCE, r"有效输出|有效输入|非空|不为空|不是空|存在|传入");
// "有index.size(d) <= src.size(d)", "如果d != dim, 有index.size(d) <= self.size(d)的限制": a bound
// on every dim, or on every dim but the one an attribute names.
re!(
    SIZE_BOUND,
    r"(?:d\s*(?:!=|不等于)\s*([A-Za-z_][A-Za-z0-9_]*).*?)?([A-Za-z_][A-Za-z0-9_]*)\.size\(d\)\s*(?:<=|小于等于)\s*([A-Za-z_][A-Za-z0-9_]*)\.size\(d\)"
);
// "除了dim指定的维度，其他维度上index的size大于self".
re!(
    SIZE_OVER_EXCEPT,
    r"^除了?\s*([A-Za-z_][A-Za-z0-9_]*)\s*指定的维度[，,]?\s*其[他余]维度上\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*size\s*大于\s*([A-Za-z_][A-Za-z0-9_]*)$"
);
re!(EXCEPT_REST, r"(除了?[^，,。]{0,20})[，,]\s*(其[余他])");
// "shape大小不为1", "shape size 不为 1": the element count, in shape words.
re!(SHAPE_NUMEL, r"(?i)shape\s*(?:的)?\s*(?:大小|size)");
re!(
    DIMS_EQUAL,
    r"^([A-Za-z_][A-Za-z0-9_]*)(?:[和与、]([A-Za-z_][A-Za-z0-9_]*))?的?(第\s*(?:[一二三四五六七八]|\d)|最后一|倒数第[一二三四])\s*(?:个)?维度?(?:值|的大小|的size|的值)?(?:(?:和|与|不等于)([A-Za-z_][A-Za-z0-9_]*)的?(第\s*(?:[一二三四五六七八]|\d)|最后一|倒数第[一二三四])\s*(?:个)?维度?(?:值|的大小|的size|的值)?)?(?:不(?:相等|一致|相同))?$"
);
// "counts、mean和invstd在第一维上的size不一致".
re!(
    DIMS_EQUAL_GROUP,
    r"^([A-Za-z_][A-Za-z0-9_]*(?:\s*[、，,和与及]\s*[A-Za-z_][A-Za-z0-9_]*)+)\s*在(第\s*(?:[一二三四五六七八]|\d)|最后一)\s*(?:个)?维度?上?的?(?:size|大小|长度)不(?:一致|相等|相同)$"
);
// "dim中的数据指向同一个维度": two entries naming one dim are a repetition.
re!(REPEATED, r"重复|指向(?:同一个?|相同的?)维度");
re!(
    ZERO_RANK,
    r"(?:维度|维数|维度数|rank)\s*(?:等于|为|是|==|=)\s*0\s*(?:维)?$"
);
// "self最后两维的大小不一致", "x的shape后两维不相等", "self不是方阵": a tensor of square matrices.
re!(
    NOT_SQUARE,
    r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?:的)?\s*(?:(?:shape\s*(?:的|中)?\s*)?(?:最后|后)\s*(?:两|2)\s*(?:个)?(?:维度?|轴)\s*(?:的)?\s*(?:大小|size|长度)?\s*(?:不一致|不相等|不相同|不等)|(?:不是|不为)\s*方阵)$"
);
re!(
    MATMUL,
    r"^([A-Za-z_][A-Za-z0-9_]*)(?:和|与|、)([A-Za-z_][A-Za-z0-9_]*)(?:的shape)?不满足(?:矩阵)?相乘(?:条件|的条件|规则)$"
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

re!(EXCEPT, r"除.*(?:外|以外)|除了");

re!(ALSO_NOT, r"[，,]\s*也不等于");
// "x的最后一维不能被8整除", "x的shape尾轴大小不是偶数", "x的第二维不能被2整除".
re!(
    DIM_MULTIPLE,
    r"^(?:入参|参数|输入)?([A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|或者|或|和|与)\s*[A-Za-z_][A-Za-z0-9_]*)*)的(?:shape的?)?(尾轴|最后一(?:维|轴)|最后一个(?:维度|轴)|第\s*(?:[一二三四五六七八]|\d)\s*(?:个)?(?:维度?|轴)|倒数第[一二三四]\s*(?:个)?(?:维度?|轴))(?:的?大小|的?size|的?值)?(?:不能被\s*(\d+)\s*整除|不是偶数|不为偶数|(?:不是|不为)\s*(\d+)\s*的(?:整数)?倍数)$"
);
// "x的第一维度超出范围[1, 262144]", "或者第二维度超出[1, 256]" (the subject of the clause before),
// "x的第四维大于4096或者等于0", "x的最后一维为0": bounds on the size of one positional dim.
re!(
    DIM_RANGE,
    r"^(?:或者|或)?\s*(?:入参|参数|输入)?\s*(?:([A-Za-z_][A-Za-z0-9_]*(?:\s*(?:、|或者|或|和|与)\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*的)?\s*(?:shape的?)?\s*(尾轴|最后一个?(?:维度?|轴)|第\s*[一二三四五六七八\d]\s*个?(?:维度?|轴)|倒数第[一二三四]\s*个?(?:维度?|轴))\s*(?:的?大小|的?size|的?长度)?\s*(?:(?:超出|超过|不在)\s*(?:范围)?\s*[\[［]\s*(\d+)\s*[,，]\s*(\d+)\s*[\]］]\s*(?:范围)?(?:之?内)?|(?:大于|超过|>)\s*(\d+)(\s*(?:或者|或)\s*(?:等于|为)\s*0)?|(?:等于|为)\s*0\s*(?:或者|或)\s*(?:大于|超过|>)\s*(\d+)|(?:小于|<)\s*(\d+)|(?:等于|为)\s*0|(?:不是|不为|不等于)\s*(\d+))$"
);
// "self根据指定的dim所对应的维度不能整除2", "x在dim对应维度上不能被2整除".
re!(
    DIM_MULTIPLE_AT,
    r"^(?:入参|参数|输入)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:根据指定的|在)\s*([A-Za-z_][A-Za-z0-9_]*)\s*所?对应的?维度上?(?:的?大小|的?size)?(?:不能被\s*(\d+)\s*整除|不能整除\s*(\d+)|不是偶数|不为偶数|(?:不是|不为)\s*(\d+)\s*的(?:整数)?倍数)$"
);
// "weight、runningMean的shape长度与input shape中channel轴的长度不相等", "mean或invstd在第二维上的size与
// input的channel轴不一致".
re!(
    CHANNEL_MATCH,
    r"^([A-Za-z_][A-Za-z0-9_]*(?:\s*[、，,和与或及]\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:在(第\s*(?:[一二三四五六七八]|\d)|最后一)\s*(?:个)?维度?上)?的?(?:shape|size|大小)(?:的?长度|的?size|的?大小)?(?:需要)?(?:与|和|跟)(?:入参)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:的\s*shape|shape)?\s*(?:中|的)?\s*(?:channel轴|C轴|通道轴)(?:的?长度|的?size|的?大小)?不(?:一致|相等|相同)$"
);
// "第2维固定为channel轴", "默认第二维为channel轴", "channel轴为第二维".
re!(
    PINNED_CHANNEL,
    r"第\s*([1-8一二三四五六七八])\s*维(?:度)?(?:固定)?(?:为|是)\s*(?:channel|C|通道)轴|(?:channel|C|通道)轴(?:固定)?(?:为|是)第\s*([1-8一二三四五六七八])\s*维"
);
// A dim as docs name it: "最后一维", "尾轴", "第二维", "倒数第一维", "dim维", "dim指定的轴".
macro_rules! dim_ref {
    () => {
        r"(?:最后一个?维度?|尾轴|第\s*[一二三四五六七八\d]\s*个?维度?|倒数第[一二三四]\s*个?维度?|[A-Za-z_][A-Za-z0-9_]*\s*(?:指定的|对应的?)?\s*(?:维度?|轴))"
    };
}
// "out、outGelu在dim维的size不等于self在dim维size的1/2", "x最后一维不等于gradY最后一维的2倍".
re!(
    SCALED_DIM,
    concat!(
        r"^(?:入参|参数)?([A-Za-z_][A-Za-z0-9_]*(?:\s*[、，,和与或及]\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:的\s*shape)?\s*(?:在|的)?\s*(",
        dim_ref!(),
        r")\s*上?\s*的?\s*(?:size|大小|长度)?\s*(?:不等于|不是|不为)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:的\s*shape)?\s*(?:在|的)?\s*(",
        dim_ref!(),
        r")\s*上?\s*的?\s*(?:size|大小|长度)?\s*的\s*(?:(\d+)\s*倍|(\d+)\s*/\s*(\d+)|(一半))$"
    )
);
// "out的shape跟self的shape除了dim指定的轴外需要保持一致，dim指定的轴为self的shape对应轴的一半".
re!(
    SAME_BUT_HALVED,
    &[
        r"^([A-Za-z_][A-Za-z0-9_]*(?:\s*[、，,和与或及]\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*的\s*shape\s*(?:跟|与|和)\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*shape\s*除了?\s*(",
        dim_ref!(),
        r")\s*外\s*",
        crate::read::MODAL,
        r"?\s*(?:保持)?\s*(?:一致|相同|相等)\s*[，,]\s*(?:",
        dim_ref!(),
        r"|该轴)\s*为\s*([A-Za-z_][A-Za-z0-9_]*)\s*的\s*shape\s*对应轴的\s*(?:(一半)|(\d+)\s*/\s*(\d+))$"
    ]
    .concat()
);
// "gradOut的shape不满足(*1,M,*2)其中M = N /2，N为self根据dim指定的该维度上的数值".
re!(
    STAR_SHAPE_SCALED,
    r"^([A-Za-z_][A-Za-z0-9_]*)\s*的\s*shape\s*不满足\s*\(\s*\*\s*1\s*,\s*M\s*,\s*\*\s*2\s*\)\s*[，,]?\s*其中\s*M\s*=\s*N\s*/\s*(\d+)\s*[，,]\s*N\s*为\s*([A-Za-z_][A-Za-z0-9_]*)\s*根据\s*([A-Za-z_][A-Za-z0-9_]*)\s*指定的\s*该?维度上的(?:数值|大小|size)$"
);
// "y的数据类型为INT4时，": the rest holds only under that dtype.
re!(
    // "…为INT4时，", and a joint condition "…为BFLOAT16、FLOAT16且self和out类型不一致": both hold
    // is the error, so the rest is the error while the dtype is one of those.
    DTYPE_WHEN,
    r"^(?:当|若|如果)?\s*(?:输出|输入|参数)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*的?\s*(?:数据类型|dtype)\s*(?:为|是)\s*([A-Za-z0-9_]+(?:\s*(?:、|或|/|,|，)\s*[A-Za-z0-9_]+)*)\s*(?:时\s*[，,]?|[，,]?\s*(?:且|并且))\s*"
);
// "x与y的shape的非尾轴的大小不一致", "selfRef和source的shape在非dim轴上的大小不同时", "self和source除了在维度dim上，其余维度上存在shape值不相等":
// equal shapes but one dim.
re!(
    SAME_BUT_DIM,
    concat!(
        r"^(?:或者|或)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:与|和|跟|、)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:",
        r"的\s*shape\s*(?:在\s*)?的?\s*非\s*(",
        dim_ref!(),
        r")\s*上?\s*的?\s*(?:大小|size|长度)?",
        r"|除了?\s*在?\s*(?:维度|轴)?\s*(",
        dim_ref!(),
        r"|[A-Za-z_][A-Za-z0-9_]*)\s*(?:上|外|以外)?\s*[，,]?\s*其[余他]维度?上?\s*(?:存在)?\s*(?:shape|size)\s*值?",
        r")\s*不(?:一致|相等|相同|同)\s*时?$"
    )
);
// "index中的值超过self指定dim的最大值": dim names the dim whose size bounds index's values.
re!(
    DIM_QUALIFIER,
    r"(?:指定|对应)的?\s*([A-Za-z_][A-Za-z0-9_]*)\s*的?\s*(?:维|轴|最大值|大小|size)"
);
// The aspect a broken requirement names ("不为1维", "元素数量不等于C", "数据类型不是FLOAT").
re!(
    REQUIREMENT_ASPECT,
    r"(?i)维度数|维数|维|元素数量|元素个数|长度|size|数据类型|数据格式|格式|shape"
);
re!(NEGATION, r"不|非");
