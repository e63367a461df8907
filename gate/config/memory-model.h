/* The memory model of a benchmark: M(n) = n^a (ln n)^b, as declared under 'memory:'
 * (docs/configuration.md). */
#ifndef SG_MEMORY_MODEL_H
#define SG_MEMORY_MODEL_H

struct memory_model {
	double a;
	int b;
};

#define MEMORY_MODEL_FORMS "write n, n^K, n log n or n^K log n (K > 0)"

/* Parses "n", "n^2", "n^3", "n log n", "n^1.5 log n" (also "*", "**", "log(n)", a leading factor);
 * 0 or gate_error(). */
int memory_model_parse(const char *text, struct memory_model *m);
/* The same without a message: 0, or -1 when 'text' is not a memory model. */
int memory_model_read(const char *text, struct memory_model *m);

#endif
