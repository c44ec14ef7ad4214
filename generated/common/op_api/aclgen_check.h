// placeholder: the C++ port of aclnn_runtime::pred (branch cpp-pred)
