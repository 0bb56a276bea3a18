/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HITMAP_MEM_DATA_SRC_PRIV_H
#define HITMAP_MEM_DATA_SRC_PRIV_H

/* Bit positions and values of union perf_mem_data_src (include/uapi/linux/perf_event.h). */
#define HM_DS_OP_SHIFT		0
#define HM_DS_LVL_SHIFT		5
#define HM_DS_SNOOP_SHIFT	19
#define HM_DS_LOCK_SHIFT	24
#define HM_DS_TLB_SHIFT		26
#define HM_DS_LVLNUM_SHIFT	33
#define HM_DS_REMOTE_SHIFT	37
#define HM_DS_SNOOPX_SHIFT	38
#define HM_DS_BLK_SHIFT		40
#define HM_DS_HOPS_SHIFT	43
#define HM_DS_REGION_SHIFT	46

#define HM_OP_NA	0x01
#define HM_OP_LOAD	0x02
#define HM_OP_STORE	0x04
#define HM_OP_PFETCH	0x08
#define HM_OP_EXEC	0x10

#define HM_LVL_NA	0x01
#define HM_LVL_HIT	0x02
#define HM_LVL_MISS	0x04
#define HM_LVL_L1	0x08
#define HM_LVL_LFB	0x10
#define HM_LVL_L2	0x20
#define HM_LVL_L3	0x40
#define HM_LVL_LOC_RAM	0x80
#define HM_LVL_REM_RAM1	0x100
#define HM_LVL_REM_RAM2	0x200
#define HM_LVL_REM_CCE1	0x400
#define HM_LVL_REM_CCE2	0x800
#define HM_LVL_IO	0x1000
#define HM_LVL_UNC	0x2000

#define HM_SNOOP_NA	0x01
#define HM_SNOOP_NONE	0x02
#define HM_SNOOP_HIT	0x04
#define HM_SNOOP_MISS	0x08
#define HM_SNOOP_HITM	0x10

#define HM_LOCK_NA	0x01
#define HM_LOCK_LOCKED	0x02

#define HM_TLB_NA	0x01
#define HM_TLB_HIT	0x02
#define HM_TLB_MISS	0x04
#define HM_TLB_L1	0x08
#define HM_TLB_L2	0x10
#define HM_TLB_WK	0x20
#define HM_TLB_OS	0x40

#define HM_LVLNUM_L1		0x1
#define HM_LVLNUM_L2		0x2
#define HM_LVLNUM_L3		0x3
#define HM_LVLNUM_L4		0x4
#define HM_LVLNUM_L2_MHB	0x5
#define HM_LVLNUM_MSC		0x6
#define HM_LVLNUM_L0		0x7
#define HM_LVLNUM_UNC		0x8
#define HM_LVLNUM_CXL		0x9
#define HM_LVLNUM_IO		0xa
#define HM_LVLNUM_ANY_CACHE	0xb
#define HM_LVLNUM_LFB		0xc
#define HM_LVLNUM_RAM		0xd
#define HM_LVLNUM_PMEM		0xe
#define HM_LVLNUM_NA		0xf

#define HM_SNOOPX_FWD	0x1
#define HM_SNOOPX_PEER	0x2

#define HM_BLK_NA	0x1
#define HM_BLK_DATA	0x2
#define HM_BLK_ADDR	0x4

#define HM_HOPS_0	0x1	/* remote core, same node */
#define HM_HOPS_1	0x2	/* remote node, same socket */
#define HM_HOPS_2	0x3	/* remote socket, same board */
#define HM_HOPS_3	0x4	/* remote board */

/* Compose a data_src value: HM_DS(LVL, HM_LVL_L3) ... */
#define HM_DS(field, v)	((u64)(v) << HM_DS_##field##_SHIFT)

#endif
