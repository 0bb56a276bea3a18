// SPDX-License-Identifier: GPL-2.0-only
/* GNU build-ids of ELF files and of the running kernel, for the BUILD_ID feature. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>
#include "record/buildid.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* Walk a raw note area: {u32 namesz, descsz, type; name; desc}, 4-aligned. */
static int scan_notes(const unsigned char *p, size_t len, unsigned char id[20], unsigned char *size)
{
	size_t off = 0;

	while (off + 12 <= len) {
		unsigned int namesz, descsz, type;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		if (namesz > len || descsz > len)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && off + 4 <= len &&
		    !memcmp(p + off, "GNU", 4)) {
			size_t d = off + ((namesz + 3) & ~3u);

			if (d + descsz > len || !descsz)
				return -EINVAL;
			*size = descsz > 20 ? 20 : (unsigned char)descsz;
			memset(id, 0, 20);
			memcpy(id, p + d, *size);
			return 0;
		}
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

int hm_buildid__read_file(const char *path, unsigned char id[20], unsigned char *size)
{
	int fd, err = -ENOENT;
	Elf *e;
	Elf_Scn *scn = NULL;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return -EINVAL;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && !scan_notes(d->d_buf, d->d_size, id, size)) {
			err = 0;
			break;
		}
	}
	elf_end(e);
	close(fd);
	return err;
}

int hm_buildid__read_kernel(unsigned char id[20], unsigned char *size)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -EIO;
	return scan_notes(buf, n, id, size);
}
