// SPDX-License-Identifier: MIT
/*
 * libFuzzer: text lines through the decoder, twice: with learned field
 * layouts and with the general reader only.  Both must agree on every line
 * (outcome, reason, event, traits); a difference aborts.  Each line is read
 * three times: the second read goes through a layout learned from the
 * first, and the third through the header template its task learned from
 * the second (the line after it, the same task's, too).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input/input.h"
#include "vmsa/vmsa.h"

static void both(struct vmsa_text_parser *a, struct vmsa_text_parser *b, const char *line,
		 size_t len)
{
	struct vmsa_event ea, eb;
	enum vmsa_reject_reason ra = VMSA_REJECT__COUNT, rb = VMSA_REJECT__COUNT;
	enum vmsa_line_kind ka = vmsa_text_parse_line(a, line, len, &ea, &ra);
	enum vmsa_line_kind kb = vmsa_text_parse_line(b, line, len, &eb, &rb);
	if (ka != kb || (ka == VMSA_LINE_REJECTED && ra != rb))
		abort();
	if (ka != VMSA_LINE_EVENT && ka != VMSA_LINE_LOST)
		return;
	/* the instance of the record after an instance's lost-events marker is
	 * each decoder's own copy of the marker's: the same by content */
	if (ea.instance_len != eb.instance_len || !ea.instance != !eb.instance ||
	    (ea.instance && memcmp(ea.instance, eb.instance, ea.instance_len) != 0))
		abort();
	ea.instance = eb.instance = NULL;
	if (memcmp(&ea, &eb, sizeof(ea)) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmsa_text_parser *a, *b;
	if (vmsa_text_parser_new(&a))
		return 0;
	if (vmsa_text_parser_new(&b)) {
		vmsa_text_parser_free(a);
		return 0;
	}
	vmsa_text_parser_use_layouts(b, false);
	const char *p = (const char *)data, *e = p + size;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		size_t len = (size_t)((nl ? nl : e) - p);
		both(a, b, p, len);
		both(a, b, p, len);
		both(a, b, p, len);
		p += len + 1;
	}
	if (memcmp(vmsa_text_parser_traits(a), vmsa_text_parser_traits(b),
		   sizeof(struct vmsa_traits)) != 0)
		abort();
	vmsa_text_parser_free(a);
	vmsa_text_parser_free(b);
	return 0;
}
