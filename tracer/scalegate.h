/* scalegate.h: mark the code intervals of an OpenMP/MPI program for the scalegate performance gate.
 */
#ifndef SCALEGATE_H
#define SCALEGATE_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

#define SCALEGATE_VERSION "0.1.0"

#if defined(__GNUC__)
#define SG_API __attribute__((visibility("default")))
#else
#define SG_API
#endif

/* A registered interval (region): 0 means "not registered yet". */
typedef int sg_region_t;

/*
 * Registers (once) and returns the region called 'name' in source 'file'; the
 * same name and file always give the same handle. 'line' is where the region
 * starts (0: unknown). Thread-safe; takes a lock, so keep the handle.
 */
SG_API sg_region_t sg_region(const char *name, const char *file, int line);

/*
 * For names that are not string literals (Fortran strings, the Caliper API): a
 * region is its name, 'len' bytes (no NUL needed), whatever the file. The first
 * call on a thread registers it (with 'file', 'line'), as sg_region does, and
 * caches the handle in a per-thread table; later calls take no lock.
 * sg_region_cached only looks in that table: 0 when this thread has not met the name.
 */
SG_API sg_region_t sg_region_named(const char *name, size_t len, const char *file, int line);
SG_API sg_region_t sg_region_cached(const char *name, size_t len);

/* Enter / leave a region on the calling thread. Lock-free, malloc-free. */
SG_API void sg_begin(sg_region_t region);
/* Enter one instance of a region split by an integer tag (iteration, parameter). */
SG_API void sg_begin_tag(sg_region_t region, long tag);
/* Leave the innermost open region; 'region' must be the one entered. */
SG_API void sg_end(sg_region_t region);
/* The same, from a source line that a mismatch is reported at (what SG_END uses). */
SG_API void sg_end_line(sg_region_t region, int line);

/* 1 when this process is measuring (SCALEGATE_OUT was set), else 0. */
SG_API int sg_enabled(void);

/* Writes the profile now instead of at exit (for programs that never return). */
SG_API void sg_write_profile(void);

#if defined(SCALEGATE_DISABLE)

#define SG_BEGIN(name) do { (void)(name); } while (0)
#define SG_BEGIN_TAG(name, tag) do { (void)(name); (void)(tag); } while (0)
#define SG_END(name) do { (void)(name); } while (0)

#else

/* Each macro site registers its region once and keeps the handle in a static. */
#define SG_SITE_(name, line) \
	__extension__({ \
		static sg_region_t sg_site_; \
		sg_region_t sg_r_ = __atomic_load_n(&sg_site_, __ATOMIC_RELAXED); \
		if (__builtin_expect(!sg_r_, 0)) { \
			sg_r_ = sg_region((name), __FILE__, (line)); \
			__atomic_store_n(&sg_site_, sg_r_, __ATOMIC_RELAXED); \
		} \
		sg_r_; \
	})

#define SG_BEGIN(name) do { sg_begin(SG_SITE_(name, __LINE__)); } while (0)
#define SG_BEGIN_TAG(name, tag) do { sg_begin_tag(SG_SITE_(name, __LINE__), (tag)); } while (0)
#define SG_END(name) do { sg_end_line(SG_SITE_(name, 0), __LINE__); } while (0)

#endif

#ifdef __cplusplus
}
#endif

#endif
