// Gives the unwinder of a static flowc its binary-search table instead of a sort at the first
// exception. Linked into the static executables only (CMakeLists.txt, flowc_static_unwind),
// with -Wl,--eh-frame-hdr and -Wl,--wrap for the two functions below.
//
// A static executable starts from crtbeginT.o, which registers the whole .eh_frame with
// libgcc's unwinder (__register_frame_info, crtstuff.c: CRTSTUFFT_O does not define
// USE_PT_GNU_EH_FRAME). The unwinder searches registered frames first, and the first search
// sorts every frame description entry of the executable (unwind-dw2-fde.c init_object): 32 M
// instructions in a flowc whose whole successful compile is 6.5 M, paid by every run that
// throws once (CLI11's --help and --version, ANTLR's error strategies on a syntax error).
// With nothing registered the unwinder asks dl_iterate_phdr, which a static glibc answers for
// the executable itself, and finds the PT_GNU_EH_FRAME segment that --eh-frame-hdr makes: the
// table the linker sorted (unwind-dw2-fde-dip.c), searched in a few steps. A dynamic or
// static-PIE executable starts from crtbegin.o or crtbeginS.o, which register nothing for
// this reason. (A static PIE would do as well, but its start relocates it: 0.12 M instructions
// and 22 page faults more a run, bench/RESULTS.md.)
//
// --wrap sends crtbeginT.o's calls here; nothing else in flowc calls them.

extern "C" {

// Registers nothing: the unwinder finds the frames through PT_GNU_EH_FRAME.
void __wrap___register_frame_info(const void* /*begin*/, void* /*object*/) {}

// The matching call at exit: there is nothing to take back. (libgcc's own would abort on a
// frame it never registered.)
void* __wrap___deregister_frame_info(const void* /*begin*/) { return nullptr; }

}  // extern "C"
