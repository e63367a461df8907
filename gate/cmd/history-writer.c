/* The writer of 'history import': a thread that writes each analysed run into the open history
 * while the next directory is analysed. Either takes half an import's time; on two cores the
 * import takes the longer of the two, not their sum. */
#include <pthread.h>
#include <stdlib.h>

#include "base/util.h"
#include "cmd/history-priv.h"

struct history_writer {
	struct history *h;
	const char *where;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	pthread_t thread;
	int threaded;			/* 0: no thread could start, put() writes itself */
	struct history_record *next;	/* handed over, not yet taken; NULL: none */
	char *next_results;		/* its directory or baseline, for messages */
	int finished, failed;
};

static void record_free(struct history_record *r)
{
	history_record_release(r);
	free(r);
}

static int write_one(struct history_writer *w, struct history_record *r, char *results)
{
	int ret = history_cmd_write(w->h, w->where, r, results);

	record_free(r);
	free(results);
	return ret;
}

static void *writer_main(void *arg)
{
	struct history_writer *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct history_record *r;
		char *results;
		int ret;
		while (!w->next && !w->finished)
			pthread_cond_wait(&w->changed, &w->lock);
		if (!w->next)
			break;
		r = w->next;
		results = w->next_results;
		w->next = NULL;
		pthread_cond_broadcast(&w->changed);
		pthread_mutex_unlock(&w->lock);
		ret = write_one(w, r, results);
		pthread_mutex_lock(&w->lock);
		if (ret) {
			w->failed = 1;
			pthread_cond_broadcast(&w->changed);
			break;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct history_writer *history_writer_start(struct history *h, const char *where)
{
	struct history_writer *w = xcalloc(1, sizeof(*w));

	w->h = h;
	w->where = where;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->changed, NULL);
	w->threaded = !pthread_create(&w->thread, NULL, writer_main, w);
	return w;
}

int history_writer_put(struct history_writer *w, struct history_record *r, const char *results)
{
	int failed;

	if (!w->threaded) {
		if (!w->failed)
			return w->failed = write_one(w, r, xstrdup(results));
		record_free(r);
		return -1;
	}
	pthread_mutex_lock(&w->lock);
	while (w->next && !w->failed)
		pthread_cond_wait(&w->changed, &w->lock);
	failed = w->failed;
	if (!failed) {
		w->next = r;
		w->next_results = xstrdup(results);
		pthread_cond_broadcast(&w->changed);
	}
	pthread_mutex_unlock(&w->lock);
	if (failed)
		record_free(r);
	return failed ? -1 : 0;
}

int history_writer_finish(struct history_writer *w)
{
	int ret;

	if (w->threaded) {
		pthread_mutex_lock(&w->lock);
		w->finished = 1;
		pthread_cond_broadcast(&w->changed);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	if (w->next) { /* left by a writer that failed */
		record_free(w->next);
		free(w->next_results);
	}
	ret = w->failed ? -1 : 0;
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->changed);
	free(w);
	return ret;
}
