// fmt's compiled half, built once for the static executables.
//
// fmt keeps its non-template functions and its floating-point tables (format-inl.h: vformat,
// Dragonbox, the error and locale helpers) out of its headers, in a library. Debian's
// libfmt-dev ships that library only as a shared object, and flowc's executables are static
// (the top CMakeLists.txt says why). Including format-inl.h in every translation unit instead
// (FMT_HEADER_ONLY) compiles that half again in each one: about 6 s of each unit's 10 on the
// 2-core CI machine, a quarter of the whole build. So this unit includes it once, with
// FMT_FUNC empty as fmt's own library build has it, and defines the template specializations
// that format.h declares `extern template` and the Dragonbox conversions it declares FMT_API.
// Every other unit includes the ordinary headers. The shared-library builds (sanitizers,
// fuzzing) link Debian's libfmt.so and leave this out.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
