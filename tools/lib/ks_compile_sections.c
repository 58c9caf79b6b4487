/*
 * ks_compile_sections.c - the sections of a kernel's object, read from
 * its ELF headers: code, data and the compiler's own bookkeeping, by an
 * exact list of names, types and flags.  Anything else is refused before
 * the worker is linked from the object: the linker and the loader give
 * some names a meaning (.init and .fini are called before and after main,
 * .preinit_array, .init_array and .ctors list functions to call, a
 * section merged into .rela.dyn or .interp would steer the loader), and a
 * kernel can name a section anything (an attribute, top-level assembly,
 * an assembler directive smuggled in a section's name).  A list of what
 * is allowed has no such gap; a list of what is not had one (.init).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ks_build.h"

/* Names a kernel's object may hold exactly, and the prefixes of names it may hold (.text.hot, .rodata.str1.1). */
static const char *const exact_names[] = { "", ".text", ".data", ".bss", ".rodata", ".tdata", ".tbss", ".comment",
	".note.GNU-stack", ".note.gnu.property", ".eh_frame", ".gcc_except_table", ".group", ".symtab", ".strtab",
	".shstrtab", ".symtab_shndx", ".llvm_addrsig",
	/* nvcc's device code and its handle; hipcc's */
	".nv_fatbin", ".nvFatBinSegment", "__nv_relfatbin", "__nv_module_id", ".hip_fatbin", ".hipFatBinSegment",
	".llvm.offloading", NULL };
static const char *const name_prefixes[] = { ".text.", ".data.", ".bss.", ".rodata.", ".tdata.", ".tbss.",
	".gcc_except_table.", ".debug_", NULL };
/* Names of code the C runtime or the loader runs before or after main. */
static const char *const run_names[] = { ".init", ".fini", ".init_array", ".fini_array", ".preinit_array", ".ctors",
	".dtors", NULL };

static int
prefixed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (strncmp(name, *list, strlen(*list)) == 0 && name[strlen(*list)])
			return 1;
	return 0;
}

/* 1 when name is code the runtime calls by itself: .init, .init_array.00100, .ctors.65535 */
static int
runs_by_itself(const char *name)
{
	for (const char *const *r = run_names; *r; r++) {
		size_t n = strlen(*r);

		if (strncmp(name, *r, n) == 0 && (name[n] == '\0' || name[n] == '.'))
			return 1;
	}
	return 0;
}

/* 1 when the section type is one a kernel's object may hold under an allowed name */
static int
type_allowed(uint32_t type, const char *name)
{
	switch (type) {
	case SHT_NULL: case SHT_PROGBITS: case SHT_NOBITS: case SHT_SYMTAB: case SHT_STRTAB: case SHT_GROUP:
	case SHT_NOTE: case SHT_SYMTAB_SHNDX: case SHT_X86_64_UNWIND:
		return 1;
	case SHT_RELA: case SHT_REL:
		return strncmp(name, ".rela.", 6) == 0 || strncmp(name, ".rel.", 5) == 0;
	case SHT_INIT_ARRAY:
		return strcmp(name, ".init_array") == 0;
	case 0x6fff4c03:	/* SHT_LLVM_ADDRSIG: which symbols have their address taken */
		return strcmp(name, ".llvm_addrsig") == 0;
	default:
		return 0;
	}
}

/* NULL when a section of this name may be in a kernel's object; else why not (allocated) */
static char *
name_refusal(const char *name, int gpu)
{
	if (strncmp(name, ".rela.", 6) == 0 || strncmp(name, ".rel.", 5) == 0) {
		/* relocations of a section: as allowed as that section */
		const char *of = strchr(name + 1, '.');

		return name_refusal(of, gpu);
	}
	if (runs_by_itself(name) && !(gpu && strcmp(name, ".init_array") == 0))
		return ks_easprintf("has a constructor or destructor (its object holds section %s): code that runs before "
		    "or after the call is not allowed", name);
	if (ks_str_listed(name, exact_names) || prefixed(name_prefixes, name) || (gpu && strcmp(name, ".init_array") == 0))
		return NULL;
	return ks_easprintf("holds a section named '%.80s', which a kernel's object has no use for: only code, data and "
	    "the compiler's own sections (.text*, .rodata*, .data*, .bss*, .eh_frame...), since the linker and loader "
	    "give other names a meaning", name);
}

/* why the section header sh (named name) is refused, or NULL */
static char *
section_refusal(const Elf64_Shdr *sh, const char *name, int gpu)
{
	char *why = name_refusal(name, gpu);

	if (why)
		return why;
	if (!type_allowed(sh->sh_type, name))
		return ks_easprintf("holds section %.80s of ELF type 0x%x, which a kernel's object has no use for", name,
		    (unsigned)sh->sh_type);
	if ((sh->sh_flags & SHF_EXECINSTR) && strcmp(name, ".text") != 0 && strncmp(name, ".text.", 6) != 0)
		return ks_easprintf("makes section %.80s executable: code belongs in .text, and no other section of the "
		    "worker may be run (an executable stack or data would be code made at run time)", name);
	if ((sh->sh_flags & SHF_EXECINSTR) && (sh->sh_flags & SHF_WRITE))
		return ks_easprintf("makes section %.80s both writable and executable: code made at run time is not "
		    "allowed", name);
	return NULL;
}

char *
ks_compile_sections_refusal(const struct ks_compile_job *j, const char *obj)
{
	size_t size;
	char *data = ks_file_read(obj, &size), *why = NULL;
	int gpu = strcmp(j->target->device, "nvidia") == 0 || strcmp(j->target->device, "amd") == 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;

	if (!data)
		return ks_easprintf("has no object to check ('%s' cannot be read)", obj);
	if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_type != ET_REL || eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shstrndx >= eh->e_shnum) {
		free(data);
		return ks_estrdup("has an object that is not a 64-bit ELF relocatable file the check can read");
	}
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(data + eh->e_shoff), *names = &sh[eh->e_shstrndx];

	if (names->sh_offset > size || names->sh_size > size - names->sh_offset) {
		free(data);
		return ks_estrdup("has an object whose section names lie outside it");
	}
	for (unsigned i = 0; !why && i < eh->e_shnum; i++) {
		const char *name = data + names->sh_offset + sh[i].sh_name;

		if (sh[i].sh_name >= names->sh_size || !memchr(name, '\0', names->sh_size - sh[i].sh_name))
			why = ks_estrdup("has a section whose name lies outside the object's table of names");
		else
			why = section_refusal(&sh[i], name, gpu);
	}
	free(data);
	return why;
}
