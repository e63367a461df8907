/*
 * caliper/cali.h: scalegate's stand-in for Caliper's annotation header, so code annotated
 * for Caliper is gated unchanged. Installed as <prefix>/include/scalegate-caliper/caliper/cali.h,
 * found through 'pkg-config --cflags scalegate-caliper' or CMake's scalegate::caliper.
 *
 * Written from Caliper's public documentation of its high-level annotation API; it shares no
 * code with Caliper. A Caliper region, function, phase or loop is a scalegate interval of the
 * same name; a loop iteration is the instance 'i' (the tag) of the interval "iteration#<loop>"
 * inside the loop. What it does not support is a compile error (the attribute API, below) or a
 * no-op that changes no figure (cali_init, cali_flush). docs/languages.md has the table.
 */
#ifndef SCALEGATE_CALI_H
#define SCALEGATE_CALI_H

#include <string.h>

#include <scalegate.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A loop: its interval and the interval of its iterations. */
struct sg_cali_loop {
	sg_region_t loop;
	sg_region_t iteration;
};

static inline sg_region_t sg_cali_region_(const char *name, const char *file, int line)
{
	return sg_region_named(name, strlen(name), file, line);
}

static inline void sg_cali_begin_(const char *name, const char *file, int line)
{
	sg_begin(sg_cali_region_(name, file, line));
}

static inline void sg_cali_end_(const char *name)
{
	sg_end(sg_cali_region_(name, "?", 0));
}

/* Enters the loop's interval; the iterations' interval is "iteration#<name>" (cut at 255 bytes). */
static inline struct sg_cali_loop sg_cali_loop_begin_(const char *name, const char *file, int line)
{
	static const char prefix[] = "iteration#";
	char buf[256];
	size_t n = strlen(name);
	struct sg_cali_loop l;

	if (n > sizeof(buf) - sizeof(prefix))
		n = sizeof(buf) - sizeof(prefix);
	memcpy(buf, prefix, sizeof(prefix) - 1);
	memcpy(buf + sizeof(prefix) - 1, name, n);
	l.loop = sg_cali_region_(name, file, line);
	l.iteration = sg_region_named(buf, sizeof(prefix) - 1 + n, file, line);
	sg_begin(l.loop);
	return l;
}

/* Caliper's region functions. */
static inline void cali_begin_region(const char *name)
{
	sg_cali_begin_(name, "?", 0);
}

static inline void cali_end_region(const char *name)
{
	sg_cali_end_(name);
}

/* Documented no-ops: the tracer starts by itself and writes its profile at exit. */
static inline void cali_init(void)
{
}

static inline void cali_flush(int flags)
{
	(void)flags;
}

#ifdef __cplusplus
}
#endif

/* Called directly, the functions also record the caller's file and line. */
#define cali_begin_region(name) sg_cali_begin_((name), __FILE__, __LINE__)
#define cali_end_region(name) sg_cali_end_((name))

#define CALI_MARK_BEGIN(name) sg_cali_begin_((name), __FILE__, __LINE__)
#define CALI_MARK_END(name) sg_cali_end_((name))

#define CALI_MARK_FUNCTION_BEGIN sg_cali_begin_(__func__, __FILE__, __LINE__)
#define CALI_MARK_FUNCTION_END sg_cali_end_(__func__)
#define CALI_MARK_FUNCTION CALI_MARK_FUNCTION_BEGIN /* the older name */

#define CALI_MARK_PHASE_BEGIN(name) CALI_MARK_BEGIN(name)
#define CALI_MARK_PHASE_END(name) CALI_MARK_END(name)

#define CALI_MARK_LOOP_BEGIN(loop_id, name) \
	struct sg_cali_loop sg_cali_loop_##loop_id = sg_cali_loop_begin_((name), __FILE__, __LINE__)
#define CALI_MARK_LOOP_END(loop_id) sg_end(sg_cali_loop_##loop_id.loop)
#define CALI_MARK_ITERATION_BEGIN(loop_id, iter) \
	sg_begin_tag(sg_cali_loop_##loop_id.iteration, (long)(iter))
#define CALI_MARK_ITERATION_END(loop_id) sg_end(sg_cali_loop_##loop_id.iteration)

#define CALI_WRAP_STATEMENT(name, statement) \
	do { \
		sg_region_t sg_cali_wrap_ = sg_cali_region_((name), __FILE__, __LINE__); \
		sg_begin(sg_cali_wrap_); \
		statement; \
		sg_end(sg_cali_wrap_); \
	} while (0)

#ifdef __cplusplus
#include <scalegate.hpp>

#define CALI_CXX_MARK_FUNCTION \
	::sg::scope SG_CAT_(sg_cali_scope_, __COUNTER__)(__func__, __FILE__, __LINE__)
#define CALI_CXX_MARK_SCOPE(name) \
	::sg::scope SG_CAT_(sg_cali_scope_, __COUNTER__)((name), __FILE__, __LINE__)
#define CALI_CXX_MARK_LOOP_BEGIN(loop_id, name) CALI_MARK_LOOP_BEGIN(loop_id, name)
#define CALI_CXX_MARK_LOOP_END(loop_id) CALI_MARK_LOOP_END(loop_id)
#define CALI_CXX_MARK_LOOP_ITERATION(loop_id, iter) \
	::sg::scope SG_CAT_(sg_cali_scope_, __COUNTER__)(sg_cali_loop_##loop_id.iteration, \
							 (long)(iter))
#endif

/*
 * Caliper's attribute (key:value) API, its runtime configuration and its channels have no
 * scalegate meaning: a use is a compile error here rather than a figure silently missing.
 */
#if defined(__GNUC__)
#pragma GCC poison cali_begin cali_end cali_set cali_begin_byname cali_end_byname
#pragma GCC poison cali_begin_int cali_begin_double cali_begin_string
#pragma GCC poison cali_set_int cali_set_double cali_set_string
#pragma GCC poison cali_begin_int_byname cali_begin_double_byname cali_begin_string_byname
#pragma GCC poison cali_set_int_byname cali_set_double_byname cali_set_string_byname
#pragma GCC poison cali_create_attribute cali_create_attribute_with_metadata cali_find_attribute
#pragma GCC poison cali_make_loop_iteration_attribute cali_begin_phase cali_end_phase
#pragma GCC poison cali_begin_comm_region cali_end_comm_region CALI_MARK_COMM_REGION_BEGIN \
	CALI_MARK_COMM_REGION_END
#pragma GCC poison cali_config_set cali_config_preset cali_config_define_profile \
	cali_config_allow_read_env
#pragma GCC poison cali_create_channel cali_delete_channel cali_mpi_init
#endif

#endif
