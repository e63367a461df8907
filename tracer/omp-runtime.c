/* Finds the OpenMP runtime behind the GOMP_* wrappers, so that a wrapper never calls itself. */
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>

/* Weak: libscalegate must load in programs that have no OpenMP runtime. */
extern int omp_get_thread_num(void) __attribute__((weak));
extern int omp_get_max_threads(void) __attribute__((weak));

/* The GCC runtime, for the programs whose link dropped it: Debian's gcc links with --as-needed,
 * and when libscalegate defines every GOMP_* entry point a program calls, libgomp looks unneeded.
 * */
static const char gomp_soname[] = "libgomp.so.1";

static void *runtime;                         /* dlopen'ed libgomp, when the link dropped it */
static int (*thread_num_fn)(void);            /* its omp_get_thread_num */
static int (*max_threads_fn)(void);           /* its omp_get_max_threads */
static int missing_reported;

/* 1 when 'p' is code of the object the tracer itself lives in (the library, or the program
 * linked with libscalegate.a): calling it would come straight back here. */
static int ours(void *p, const void *self)
{
	Dl_info mine, theirs;

	if (p == self)
		return 1;
	if (!dladdr((void *)ours, &mine) || !dladdr(p, &theirs))
		return 0;
	return mine.dli_fbase == theirs.dli_fbase;
}

static void *runtime_open(void)
{
	void *h = __atomic_load_n(&runtime, __ATOMIC_ACQUIRE);

	if (h)
		return h;
	h = dlopen(gomp_soname, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return NULL;
	__atomic_store_n(&thread_num_fn, (int (*)(void))dlsym(h, "omp_get_thread_num"),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&max_threads_fn, (int (*)(void))dlsym(h, "omp_get_max_threads"),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&runtime, h, __ATOMIC_RELEASE);
	return h;
}

/* The next definition after the tracer (RTLD_NEXT); else libgomp loaded here; never our own. */
static void *lookup(const char *name, const void *self)
{
	void *p = dlsym(RTLD_NEXT, name);
	void *h;

	if (p && !ours(p, self))
		return p;
	h = runtime_open();
	p = h ? dlsym(h, name) : NULL;
	return p && !ours(p, self) ? p : NULL;
}

void *sg_omp_real(void **slot, const char *name, const void *self)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (SG_LIKELY(p))
		return p;
	p = lookup(name, self);
	if (!p) {
		if (!__atomic_exchange_n(&missing_reported, 1, __ATOMIC_RELAXED))
			fprintf(stderr,
				"scalegate: error: no OpenMP runtime defines '%s', so parallel "
				"regions run on "
				"one thread; link the runtime after the tracer (pkg-config --libs "
				"scalegate "
				"gives -Wl,--no-as-needed -lscalegate) or install %s\n",
				name, gomp_soname);
		return NULL;
	}
	__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	return p;
}

int sg_omp_thread_num(void)
{
	int (*f)(void) = omp_get_thread_num ? omp_get_thread_num
					    : __atomic_load_n(&thread_num_fn, __ATOMIC_RELAXED);

	return f ? f() : -1;
}

int sg_omp_max_threads(void)
{
	static void *slot;
	int (*f)(void) = omp_get_max_threads;

	if (!f)
		f = (int (*)(void))sg_omp_real(&slot, "omp_get_max_threads", NULL);
	return f ? f() : 1;
}

int sg_omp_linked(void)
{
	return omp_get_thread_num != NULL;
}
