/* The poster's HTTP transport: one request (a POST, or the GET, PATCH and PUT of a comment) with
 * timeouts, TLS verification, bounded retries and the token kept out of every message. */
#include "post/post-priv.h"

#include <curl/curl.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/interrupt.h"

#define RESPONSE_MAX (64 * 1024) /* of an answer's body: enough for an excerpt and more */
/* of an answer that is read (a page of comments): a hundred of the longest GitHub allows, twice */
#define ANSWER_MAX (16 * 1024 * 1024)

struct response {
	struct strbuf body;
	char status_line[160];
	size_t max;   /* bytes of the body kept */
	int too_long; /* an answer to read was longer: the transfer was stopped */
};

void post_report(int require, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (require)
		gate_error("%s", sb.buf);
	else
		warning("%s", sb.buf);
	strbuf_release(&sb);
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct response *r = arg;
	size_t n = size * nmemb;

	if (r->max == ANSWER_MAX && n > r->max - r->body.len) {
		r->too_long = 1;
		return 0; /* a page cut short would hide a comment: stop, and say why */
	}
	if (r->body.len < r->max)
		strbuf_add(&r->body, data, n < r->max - r->body.len ? n : r->max - r->body.len);
	return n;
}

/* Keeps the last status line: after a '100 Continue' the real answer follows. */
static size_t on_header(char *data, size_t size, size_t nmemb, void *arg)
{
	struct response *r = arg;
	size_t n = size * nmemb, len = n;

	if (n >= 5 && !memcmp(data, "HTTP/", 5)) {
		while (len && (data[len - 1] == '\r' || data[len - 1] == '\n'))
			len--;
		if (len >= sizeof(r->status_line))
			len = sizeof(r->status_line) - 1;
		memcpy(r->status_line, data, len);
		r->status_line[len] = '\0';
		strbuf_reset(&r->body);
	}
	return n;
}

/* Failures a later attempt may not meet: the network, the server's load, a timeout. */
static int transient_curl_error(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static int transient_status(long code)
{
	return code == 408 || code == 429 || (code >= 500 && code <= 599);
}

/* Exponential backoff, 1 s, 2 s, 4 s..., jittered by +-20 % so that parallel jobs spread out. */
static double backoff(int attempt)
{
	static uint64_t state;
	double base = ldexp(1.0, attempt < 16 ? attempt : 16);

	if (!state)
		state = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ 0x9e3779b97f4a7c15ULL;
	/* xorshift64: no need for more, and rand()'s state stays the caller's */
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	base *= 0.8 + 0.4 * (double)(state >> 11) / (double)(1ULL << 53);
	return base < POST_MAX_WAIT ? base : POST_MAX_WAIT;
}

/* libcurl asks about every second, and at once when a read or a connect is interrupted. */
static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	(void)arg, (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	return interrupt_signal ? 1 : 0; /* an interrupted gate stops posting */
}

static void post_interrupted(const struct post_plan *p, const struct post_request *r,
			     const char *where)
{
	post_report(p->require, "cannot post the %s to %s: the gate was interrupted", r->what,
		    where);
}

/* The headers as libcurl wants them, token included; wiped before they are freed. */
static struct curl_slist *build_headers(const struct post_request *r, const char *token, int *bad)
{
	struct curl_slist *list = NULL, *next;
	struct strbuf line = STRBUF_INIT;

	/* libcurl would send 'Expect: 100-continue' for a large body and wait for an answer to it.
	 */
	if (!(list = curl_slist_append(list, "Expect:")))
		*bad = 1;
	for (size_t i = 0; i < r->nr_headers && !*bad; i++) {
		strbuf_reset(&line);
		strbuf_addf(&line, "%s: %s%s", r->headers[i].name, r->headers[i].value,
			    r->headers[i].secret && token ? token : "");
		if (!(next = curl_slist_append(list, line.buf)))
			*bad = 1;
		else
			list = next;
	}
	if (line.buf)
		explicit_bzero(line.buf, line.alloc);
	strbuf_release(&line);
	return list;
}

static void free_headers(struct curl_slist *list)
{
	for (struct curl_slist *s = list; s; s = s->next)
		explicit_bzero(s->data, strlen(s->data));
	curl_slist_free_all(list);
}

static CURLcode set_options(CURL *h, const struct post_request *r, const struct post_plan *p,
			    struct curl_slist *headers, struct response *res, char *errbuf)
{
	CURLcode rc = CURLE_OK;

#define SET(opt, val) do { if (rc == CURLE_OK) rc = curl_easy_setopt(h, opt, val); } while (0)
	SET(CURLOPT_URL, r->url);
#if LIBCURL_VERSION_NUM >= 0x075500
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
#else
	SET(CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	/* A redirect could carry the token to another host: never follow one. */
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	if (p->ca_bundle)
		SET(CURLOPT_CAINFO, p->ca_bundle);
	SET(CURLOPT_CONNECTTIMEOUT_MS, (long)(p->connect_timeout * 1000));
	SET(CURLOPT_TIMEOUT_MS, (long)(p->timeout * 1000));
	SET(CURLOPT_HTTPHEADER, headers);
	if (r->method && !strcmp(r->method, "GET")) {
		SET(CURLOPT_HTTPGET, 1L);
	} else {
		SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
		SET(CURLOPT_POSTFIELDS, r->body);
		if (r->method && strcmp(r->method, "POST"))
			SET(CURLOPT_CUSTOMREQUEST, r->method);
	}
	SET(CURLOPT_WRITEFUNCTION, on_body);
	SET(CURLOPT_WRITEDATA, res);
	SET(CURLOPT_HEADERFUNCTION, on_header);
	SET(CURLOPT_HEADERDATA, res);
	SET(CURLOPT_ERRORBUFFER, errbuf);
	/* no SIGALRM of libcurl's: that signal is the interrupt's deadline (base/interrupt.h) */
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_XFERINFOFUNCTION, on_progress);
	SET(CURLOPT_NOPROGRESS, 0L);
	/* CURLOPT_VERBOSE stays off: it would print the Authorization header. */
#undef SET
	return rc;
}

/* What went wrong in one attempt, masked, into 'msg'. */
static void describe(struct strbuf *msg, CURLcode rc, long code, const struct response *res,
		     const char *errbuf, const char *token)
{
	if (res->too_long) {
		strbuf_addf(msg, "the answer is longer than %d MiB", ANSWER_MAX >> 20);
		return;
	}
	if (rc != CURLE_OK) {
		const char *text = *errbuf ? errbuf : curl_easy_strerror(rc);
		post_excerpt(msg, text, strlen(text), token, 300);
		return;
	}
	if (*res->status_line)
		post_excerpt(msg, res->status_line, strlen(res->status_line), token, 120);
	else
		strbuf_addf(msg, "HTTP status %ld", code);
	if (code >= 300 && code < 400)
		strbuf_addstr(msg, " (redirects are not followed; check the URL)");
	if (res->body.len) {
		strbuf_addstr(msg, ": ");
		post_excerpt(msg, res->body.buf, res->body.len, token, POST_EXCERPT_MAX);
	}
}

int post_http_send(const struct post_request *r, const struct post_plan *p, struct strbuf *answer)
{
	struct response res = { STRBUF_INIT, "", answer ? ANSWER_MAX : RESPONSE_MAX, 0 };
	struct strbuf msg = STRBUF_INIT;
	struct curl_slist *headers = NULL;
	char errbuf[CURL_ERROR_SIZE], *where = post_display_url(r->url, p->token);
	int ret = -1, bad = 0;
	CURL *h = curl_easy_init();

	if (!h) {
		post_report(p->require, "cannot post the %s: cannot initialize libcurl", r->what);
		goto out;
	}
	headers = build_headers(r, p->token, &bad);
	if (bad || set_options(h, r, p, headers, &res, errbuf) != CURLE_OK) {
		post_report(p->require, "cannot post the %s: cannot set up the request to %s",
			    r->what, where);
		goto out;
	}
	for (int attempt = 0;; attempt++) {
		long code = 0;
		curl_off_t retry_after = 0;
		CURLcode rc;
		double wait;
		int transient;

		errbuf[0] = '\0';
		res.status_line[0] = '\0';
		res.too_long = 0;
		strbuf_reset(&res.body);
		rc = curl_easy_perform(h);
		if (interrupt_signal) {
			post_interrupted(p, r, where);
			break;
		}
		if (rc == CURLE_OK)
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		if (rc == CURLE_OK && code >= 200 && code <= 299) {
			if (answer)
				strbuf_add(answer, res.body.buf ? res.body.buf : "", res.body.len);
			ret = 0;
			break;
		}
		strbuf_reset(&msg);
		describe(&msg, rc, code, &res, errbuf, p->token);
		transient = rc == CURLE_OK ? transient_status(code) : transient_curl_error(rc);
		if (!transient || attempt >= p->retries) {
			if (transient && attempt)
				strbuf_addf(&msg, " (attempt %d of %d)", attempt + 1, attempt + 1);
			post_report(p->require, "cannot %s the %s %s %s: %s",
				    answer ? "get" : "post", r->what, answer ? "from" : "to", where,
				    msg.buf);
			break;
		}
		wait = backoff(attempt);
#if LIBCURL_VERSION_NUM >= 0x074200
		/* Both forms of Retry-After, seconds and an HTTP date; 0 when absent. */
		if (rc == CURLE_OK &&
		    curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &retry_after) != CURLE_OK)
			retry_after = 0;
#endif
		if (retry_after > 0 && (double)retry_after > wait)
			wait = (double)retry_after < POST_MAX_WAIT ? (double)retry_after
								   : POST_MAX_WAIT;
		if (retry_after > 0)
			strbuf_addf(&msg, " (Retry-After: %ld s)", (long)retry_after);
		warning("attempt %d of %d to %s the %s %s %s failed: %s; retrying in %.1f s",
			attempt + 1, p->retries + 1, answer ? "get" : "post", r->what,
			answer ? "from" : "to", where, msg.buf, wait);
		if (interrupt_sleep(wait)) {
			post_interrupted(p, r, where);
			break;
		}
	}
out:
	free_headers(headers);
	if (h)
		curl_easy_cleanup(h);
	strbuf_release(&msg);
	strbuf_release(&res.body);
	free(where);
	return ret;
}
