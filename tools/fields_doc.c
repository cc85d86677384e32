/* SPDX-License-Identifier: MIT */
/*
 * Prints a Markdown file with its field tables made again from the summary
 * field table (src/summary_fields.c): each part between
 *
 *     <!-- fields:begin PATH [own] -->
 *     <!-- fields:end -->
 *
 * becomes a table of the members of the object at PATH ("." the document,
 * "input.sources[]" each source's, "(notes)" the notes): key, unit, merge
 * rule and meaning.  A shape another includes is listed member by member,
 * or with "own" as one line.  The rest of the file is copied as it is.
 *
 *     fields_doc docs/json-schema.md > new.md     regenerate
 *     fields_doc --check docs/json-schema.md      exit 1 if it is not so
 *
 * --check also fails when an object of the document has no table.
 * Built with the tests, not installed.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary_fields.h"

#define BEGIN "<!-- fields:begin "
#define END "<!-- fields:end -->"

static const char *merge_name(enum vmsa_merge m)
{
	static const char *const names[] = {
		[VMSA_MERGE_SUM] = "sum",
		[VMSA_MERGE_SUM_UNKNOWN] = "sum, null if either is",
		[VMSA_MERGE_SUM_WRITES] = "sum, null if a null hides writes",
		[VMSA_MERGE_MIN] = "minimum",
		[VMSA_MERGE_MAX] = "maximum",
		[VMSA_MERGE_FIRST] = "first input's",
		[VMSA_MERGE_ANY] = "true if in any",
		[VMSA_MERGE_ALL] = "true if in all",
		[VMSA_MERGE_OBJECT] = "member by member",
		[VMSA_MERGE_HIST] = "bucket by bucket",
		[VMSA_MERGE_ROWS] = "rows of one comm and pid merge",
		[VMSA_MERGE_CONCAT] = "one list after the other",
		[VMSA_MERGE_UNION] = "each text once",
		[VMSA_MERGE_DERIVED] = "recomputed",
	};
	return (unsigned)m < VMSA_MERGE__COUNT && names[m] ? names[m] : "?";
}

/* the shapes with a table, to find those without */
#define MAX_SHAPES 64
struct shapes {
	const struct vmsa_shape *s[MAX_SHAPES];
	size_t n;
};

struct seen {
	struct shapes listed, visited;
	int errors;
};

/* adds s to l: false if it was there */
static bool mark_in(struct shapes *l, const struct vmsa_shape *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i] == s)
			return false;
	if (l->n < MAX_SHAPES)
		l->s[l->n++] = s;
	return true;
}

static void mark(struct seen *seen, const struct vmsa_shape *s)
{
	mark_in(&seen->listed, s);
}

static void rows(FILE *out, const struct vmsa_shape *s, bool own, struct seen *seen)
{
	mark(seen, s);
	for (size_t i = 0; i < s->n; i++) {
		const struct vmsa_field *f = &s->members[i];
		if (!f->key && own) {
			fprintf(out, "| … | | | the members of `%s`, above |\n",
				f->shape->name ? f->shape->name : "?");
			continue;
		}
		if (!f->key) {
			rows(out, f->shape, false, seen);
			continue;
		}
		if (!f->doc) {
			fprintf(stderr, "fields_doc: %s of %s has no meaning in the table\n", f->key,
				s->name ? s->name : "an object");
			seen->errors++;
		}
		fprintf(out, "| `%s%s` | %s%s%s | %s | %s |\n", f->key,
			f->unit == VMSA_UNIT_LIST ? "[]" : "", vmsa_unit_name(f->unit),
			f->nullable ? " or null" : "", f->optional ? ", optional" : "",
			merge_name(f->merge), f->doc ? f->doc : "");
	}
}

/* the shape at a dotted path, "." the document's */
static const struct vmsa_shape *shape_at(const char *path)
{
	const struct vmsa_shape *s = &vmsa_summary_shape;
	if (!strcmp(path, "."))
		return s;
	const char *p = path;
	while (s && *p) {
		size_t n = strcspn(p, ".");
		size_t k = n >= 2 && !memcmp(p + n - 2, "[]", 2) ? n - 2 : n;
		const struct vmsa_field *f = vmsa_shape_member(s, p, k);
		s = f && f->key && strcmp(f->key, "*") ? f->shape : NULL;
		p += n + (p[n] == '.');
	}
	return s;
}

static int table(FILE *out, const char *spec, struct seen *seen)
{
	char path[128];
	char own[8] = "";
	if (sscanf(spec, "%127s %7s", path, own) < 1)
		return -1;
	if (!strcmp(path, "(notes)")) {
		fputs("| note | meaning |\n|---|---|\n", out);
		for (size_t i = 0; i < vmsa_nnotes; i++)
			fprintf(out, "| `%s` | %s |\n", vmsa_notes[i].key,
				vmsa_notes[i].json + strlen(vmsa_notes[i].key) + 2);
		return 0;
	}
	const struct vmsa_shape *s = shape_at(path);
	if (!s) {
		fprintf(stderr, "fields_doc: no object at %s\n", path);
		return -1;
	}
	fputs("| field | unit | merge | meaning |\n|---|---|---|---|\n", out);
	rows(out, s, !strcmp(own, "own"), seen);
	return 0;
}

/* every object of the document with named members has a table */
static void unlisted(const struct vmsa_shape *s, struct seen *seen, const char *path)
{
	bool keyed = false, listed = !mark_in(&seen->listed, s);
	if (!mark_in(&seen->visited, s))
		return;
	for (size_t i = 0; i < s->n; i++) {
		const struct vmsa_field *f = &s->members[i];
		keyed |= f->key && strcmp(f->key, "*");
		if (f->key && f->shape) {
			char p[256];
			snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", f->key);
			unlisted(f->shape, seen, p);
		} else if (!f->key) {
			unlisted(f->shape, seen, path);
		}
	}
	if (keyed && !listed) {
		fprintf(stderr, "fields_doc: %s has no table (" BEGIN "%s -->)\n",
			*path ? path : ".", *path ? path : ".");
		seen->errors++;
	}
}

int main(int argc, char **argv)
{
	bool check = argc == 3 && !strcmp(argv[1], "--check");
	if (argc != 2 && !check) {
		fprintf(stderr, "usage: fields_doc [--check] FILE.md\n");
		return 2;
	}
	const char *path = argv[argc - 1];
	FILE *in = fopen(path, "r");
	if (!in) {
		perror(path);
		return 2;
	}
	char *text = NULL, *made = NULL;
	size_t tlen = 0, mlen = 0;
	FILE *orig = open_memstream(&text, &tlen), *out = open_memstream(&made, &mlen);
	struct seen seen = {.errors = 0};
	char *line = NULL;
	size_t cap = 0;
	bool inside = false;
	int err = 0;
	while (getline(&line, &cap, in) > 0) {
		fputs(line, orig);
		if (inside && !strncmp(line, END, strlen(END)))
			inside = false;
		if (inside)
			continue;
		fputs(line, out);
		if (!strncmp(line, BEGIN, strlen(BEGIN))) {
			if (table(out, line + strlen(BEGIN), &seen) < 0)
				err = 2;
			inside = true;
		}
	}
	free(line);
	fclose(in);
	fclose(orig);
	fclose(out);
	if (inside) {
		fprintf(stderr, "fields_doc: %s: " BEGIN "... without " END "\n", path);
		err = 2;
	}
	unlisted(&vmsa_summary_shape, &seen, "");
	if (seen.errors)
		err = 2;
	if (!check) {
		fwrite(made, 1, mlen, stdout);
	} else if (!err && (tlen != mlen || memcmp(text, made, mlen))) {
		size_t i = 0, lineno = 1;
		while (i < tlen && i < mlen && text[i] == made[i])
			lineno += text[i++] == '\n';
		fprintf(stderr,
			"fields_doc: %s differs from the field table at line %zu; regenerate it:\n"
			"  fields_doc %s > new.md && mv new.md %s\n",
			path, lineno, path, path);
		err = 1;
	}
	free(text);
	free(made);
	return err;
}
