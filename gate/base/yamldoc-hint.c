/* "Did you mean": the known key or value nearest to a misspelt one, and the messages with it. */
#include "base/yamldoc.h"
#include "base/util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Edit distance with a swap of two neighbours as one edit ("rnu" is one slip from "run"), ignoring
 * case: the optimal string alignment distance, over three rows. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), rows[3][65];
	size_t *two = rows[0], *one = rows[1], *cur = rows[2];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		one[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t;
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t best = one[j - 1] + (ca != cb);
			if (one[j] + 1 < best)
				best = one[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
			cur[j] = best;
		}
		t = two;
		two = one;
		one = cur;
		cur = t;
	}
	return one[lb];
}

/* Letters and digits: "--a" has one, too few to stand for a word. */
static size_t alnums(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += isalnum((unsigned char)*s) != 0;
	return n;
}

/* Whether 'part' is one of the words of 'whole' (at its start or after a '_' or '-'), ignoring
 * case: "contention" of "max_contention", "name" of "benchmark_name"; not "mpi" of "compile". */
static int word_of(const char *whole, const char *part)
{
	size_t n = strlen(part);

	if (alnums(part) < 3)
		return 0;
	for (const char *s = whole; strlen(s) >= n; s++)
		if ((s == whole || s[-1] == '_' || s[-1] == '-') && !strncasecmp(s, part, n))
			return 1;
	return 0;
}

/*
 * How near 'word' is to 'known', 1 the nearest, 0 not near: the same but for case (1); its
 * beginning (2: "time" of "timeout", which is 2 edits from "name"); one edit (3: "treads"); a
 * word of it or it a word of 'word' (4: "contention" of "max_contention"); two edits (5). An edit
 * distance must stay below the word's length: "x" is 2 edits from many keys.
 */
static int nearness(const char *word, const char *known)
{
	size_t lw = strlen(word), dist;

	if (!strcasecmp(word, known))
		return 1;
	if (alnums(word) >= 3 && lw < strlen(known) && !strncasecmp(word, known, lw))
		return 2;
	dist = edit_distance(word, known);
	if (dist == 1 && dist < lw)
		return 3;
	if (word_of(known, word) || word_of(word, known))
		return 4;
	if (dist == 2 && dist < lw)
		return 5;
	return 0;
}

const char *yamldoc_closest(const char *key, const char *const *known)
{
	const char *best = NULL;
	int best_rank = 0;

	for (; *known; known++) {
		int rank = nearness(key, *known);
		/* of several a word begins, the shortest: "max" is more likely 'max_repeat' */
		if (rank && (!best || rank < best_rank ||
			     (rank == 2 && best_rank == 2 && strlen(*known) < strlen(best)))) {
			best = *known;
			best_rank = rank;
		}
	}
	return best;
}

const char *yamldoc_choices(char *buf, size_t size, const char *const *words)
{
	size_t n = 0, len = 0;

	buf[0] = '\0';
	while (words[n])
		n++;
	for (size_t i = 0; i < n && len < size; i++) {
		const char *sep = !i ? "" : i + 1 < n ? ", " : " or ";
		int w = snprintf(buf + len, size - len, "%s%s", sep, words[i]);
		len += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

int yamldoc_bad_choice(struct yamldoc *d, const yaml_node_t *n, const char *key,
		       const char *value, const char *const *words)
{
	const char *hint = yamldoc_closest(value, words);
	char all[256];

	yamldoc_choices(all, sizeof(all), words);
	if (hint)
		return yamldoc_error(d, n, "'%s' must be %s, not '%s'; did you mean '%s'?", key,
				     all, value, hint);
	return yamldoc_error(d, n, "'%s' must be %s, not '%s'", key, all, value);
}

int yamldoc_unknown_key(struct yamldoc *d, const yaml_node_t *key_node,
			const char *const *known)
{
	const char *key = yamldoc_scalar(key_node);
	const char *hint;
	char buf[64];

	if (!key || yamldoc_is_null(key_node))
		return yamldoc_error(d, key_node, "keys must be strings, not %s",
				     yamldoc_describe(key_node, buf, sizeof(buf)));
	/* libyaml keeps YAML 1.1 merge keys as plain keys: say why this one fails. */
	if (!strcmp(key, "<<"))
		return yamldoc_error(d, key_node, "merge keys ('<<') are not supported");
	hint = yamldoc_closest(key, known);
	if (hint)
		return yamldoc_error(d, key_node, "unknown key '%s'; did you mean '%s'?", key,
				     hint);
	return yamldoc_error(d, key_node, "unknown key '%s'", key);
}
