// aclgen's stand-in for exe_graph/runtime/shape.h (not CANN's header), written from CANN's public gert reference: gert::Shape, gert::StorageShape.
#ifndef ACLGEN_STANDIN_EXE_GRAPH_SHAPE_H_
#define ACLGEN_STANDIN_EXE_GRAPH_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace gert {
/// A tensor's dims. Backed by a vector (CANN's has a fixed capacity; generated code never reaches it).
class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    void SetDimNum(size_t n) { dims_.resize(n, 0); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    void SetDim(size_t i, int64_t v)
    {
        if (i < dims_.size()) {
            dims_[i] = v;
        }
    }
    Shape& AppendDim(int64_t v)
    {
        dims_.push_back(v);
        return *this;
    }
    bool IsScalar() const { return dims_.empty(); }
    int64_t GetShapeSize() const
    {
        int64_t n = 1;
        for (int64_t d : dims_) {
            n *= d;
        }
        return n;
    }
    int64_t operator[](size_t i) const { return GetDim(i); }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

/// The origin and storage shapes of a tensor in a graph context.
class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }

private:
    Shape origin_;
    Shape storage_;
};
} // namespace gert

#endif
