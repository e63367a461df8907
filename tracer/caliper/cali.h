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
 * scalegate meaning: a use is a compile error that says what to write instead, rather than a
 * figure silently missing ("error: 'cali_set_int' is unavailable: scalegate: ...").
 */
#if defined(__has_attribute)
#if __has_attribute(unavailable)
#define SG_CALI_UNSUPPORTED_(use) __attribute__((unavailable("scalegate: " use)))
#endif
#endif
#if !defined(SG_CALI_UNSUPPORTED_) && defined(__GNUC__)
#define SG_CALI_UNSUPPORTED_(use) __attribute__((error("scalegate: " use)))
#endif
#ifndef SG_CALI_UNSUPPORTED_
#define SG_CALI_UNSUPPORTED_(use)
#endif
/* any arguments: C's empty list (before C23), C++'s ellipsis */
#ifdef __cplusplus
#define SG_CALI_ANY_ ...
extern "C" {
#else
#define SG_CALI_ANY_
#endif

typedef unsigned long long cali_id_t;

/* "any arguments" is the point: no prototype to warn about */
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif

#define SG_CALI_ATTRIBUTES_ \
	"Caliper attributes are not supported; mark a region with CALI_MARK_BEGIN(name) and " \
	"CALI_MARK_END(name), a loop iteration with CALI_MARK_ITERATION_BEGIN(loop, i) " \
	"(docs/languages.md)"
#define SG_CALI_NOT_(name, use) cali_id_t name(SG_CALI_ANY_) SG_CALI_UNSUPPORTED_(use);
#define SG_CALI_ATTRIBUTE_CALLS_(X) \
	X(cali_begin) X(cali_end) X(cali_set) X(cali_begin_byname) X(cali_end_byname) \
	X(cali_begin_int) X(cali_begin_double) X(cali_begin_string) X(cali_set_int) \
	X(cali_set_double) X(cali_set_string) X(cali_begin_int_byname) \
	X(cali_begin_double_byname) X(cali_begin_string_byname) X(cali_set_int_byname) \
	X(cali_set_double_byname) X(cali_set_string_byname) X(cali_create_attribute) \
	X(cali_create_attribute_with_metadata) X(cali_find_attribute) \
	X(cali_make_loop_iteration_attribute)
#define SG_CALI_ATTRIBUTE_(name) SG_CALI_NOT_(name, SG_CALI_ATTRIBUTES_)
SG_CALI_ATTRIBUTE_CALLS_(SG_CALI_ATTRIBUTE_)
SG_CALI_NOT_(cali_begin_phase, "use CALI_MARK_PHASE_BEGIN(name) (docs/languages.md)")
SG_CALI_NOT_(cali_end_phase, "use CALI_MARK_PHASE_END(name) (docs/languages.md)")
SG_CALI_NOT_(sg_cali_comm_region_,
	     "communication regions are not supported: MPI calls are captured without "
	     "annotations; mark a region with CALI_MARK_BEGIN/CALI_MARK_END (docs/languages.md)")
SG_CALI_NOT_(cali_begin_comm_region, "communication regions are not supported: MPI calls are "
				     "captured without annotations; use CALI_MARK_BEGIN(name)")
SG_CALI_NOT_(cali_end_comm_region, "communication regions are not supported: MPI calls are "
				   "captured without annotations; use CALI_MARK_END(name)")
#define SG_CALI_CONFIG_ \
	"Caliper's runtime configuration is not supported: scalegate needs none (the " \
	"benchmarks, runs and rules are in scalegate.yml); remove the call"
SG_CALI_NOT_(cali_config_set, SG_CALI_CONFIG_)
SG_CALI_NOT_(cali_config_preset, SG_CALI_CONFIG_)
SG_CALI_NOT_(cali_config_define_profile, SG_CALI_CONFIG_)
SG_CALI_NOT_(cali_config_allow_read_env, SG_CALI_CONFIG_)
#define SG_CALI_CHANNELS_ \
	"Caliper channels are not supported: the tracer writes one profile per process at " \
	"exit (or MPI_Finalize) into $SCALEGATE_OUT; remove the call"
SG_CALI_NOT_(cali_create_channel, SG_CALI_CHANNELS_)
SG_CALI_NOT_(cali_delete_channel, SG_CALI_CHANNELS_)
SG_CALI_NOT_(cali_mpi_init, "not needed: the MPI tracer starts with MPI_Init; remove the call")
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#define CALI_MARK_COMM_REGION_BEGIN(name) sg_cali_comm_region_(name)
#define CALI_MARK_COMM_REGION_END(name) sg_cali_comm_region_(name)


#endif
