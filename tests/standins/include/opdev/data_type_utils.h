// aclgen's stand-in for opdev/data_type_utils.h (not CANN's header), written from CANN's public opbase reference: ToOpDataType, ToAclDataType, TypeSize.
#ifndef ACLGEN_STANDIN_OPDEV_DATA_TYPE_UTILS_H_
#define ACLGEN_STANDIN_OPDEV_DATA_TYPE_UTILS_H_

#include <cstddef>

#include "opdev/common_types.h"

namespace op {
/// aclDataType and ge::DataType share their numbers but for ACL_DT_UNDEFINED (-1 and 28).
inline DataType ToOpDataType(aclDataType d)
{
    return d == ACL_DT_UNDEFINED ? DataType::DT_UNDEFINED : static_cast<DataType>(d);
}
inline aclDataType ToAclDataType(DataType d)
{
    return d == DataType::DT_UNDEFINED ? ACL_DT_UNDEFINED : static_cast<aclDataType>(d);
}
/// Bytes of one element (sub-byte dtypes count 1).
inline size_t TypeSize(DataType d)
{
    switch (d) {
        case DataType::DT_DOUBLE:
        case DataType::DT_INT64:
        case DataType::DT_UINT64:
        case DataType::DT_COMPLEX64:
            return 8;
        case DataType::DT_COMPLEX128:
            return 16;
        case DataType::DT_FLOAT:
        case DataType::DT_INT32:
        case DataType::DT_UINT32:
        case DataType::DT_COMPLEX32:
            return 4;
        case DataType::DT_FLOAT16:
        case DataType::DT_BF16:
        case DataType::DT_INT16:
        case DataType::DT_UINT16:
            return 2;
        default:
            return 1;
    }
}
} // namespace op

#endif
