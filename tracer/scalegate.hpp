/* scalegate.hpp: C++ scope guards for scalegate intervals; an interval ends however its scope is
 * left, exceptions included. */
#ifndef SCALEGATE_HPP
#define SCALEGATE_HPP

#include <cstring>

#include "scalegate.h"

namespace sg {

/*
 * Enters an interval in the constructor and leaves it in the destructor, so a
 * return or an exception that leaves the scope closes it and later intervals
 * keep their parent. Throws nothing: usable with -fno-exceptions.
 */
class scope {
public:
	explicit scope(sg_region_t region) noexcept : region_(region) { sg_begin(region_); }
	scope(sg_region_t region, long tag) noexcept : region_(region)
	{
		sg_begin_tag(region_, tag);
	}
	/* By name, for names that are not literals: a per-thread cache, no lock after the first
	 * use. */
	explicit scope(const char *name, const char *file = "?", int line = 0) noexcept
		: region_(sg_region_named(name, std::strlen(name), file, line))
	{
		sg_begin(region_);
	}
	~scope() { sg_end(region_); }

	scope(const scope &) = delete;
	scope &operator=(const scope &) = delete;

private:
	sg_region_t region_;
};

} // namespace sg

#define SG_CAT2_(a, b) a##b
#define SG_CAT_(a, b) SG_CAT2_(a, b)

#if defined(SCALEGATE_DISABLE)
#define SG_SCOPE(name) ((void)(name))
#define SG_SCOPE_TAG(name, tag) ((void)(name), (void)(tag))
#else
/* An interval from here to the end of the enclosing scope; the site registers once, as SG_BEGIN. */
#define SG_SCOPE(name) ::sg::scope SG_CAT_(sg_scope_, __COUNTER__)(SG_SITE_(name, __LINE__))
#define SG_SCOPE_TAG(name, tag) \
	::sg::scope SG_CAT_(sg_scope_, __COUNTER__)(SG_SITE_(name, __LINE__), (tag))
#endif

#endif
