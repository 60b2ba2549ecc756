/*
 * Where the NVIDIA driver installs NVML on this operating system: the default search of
 * nvml_loader_open() when neither the caller nor $NVITOP_NVML_LIBRARY names a library.
 * nvml_default_posix.c: libnvidia-ml.so.1, then libnvidia-ml.so (the loader's search path);
 * nvml_default_windows.c: nvml.dll in %SystemRoot%\System32, then in
 * %ProgramFiles%\NVIDIA Corporation\NVSMI (drivers before R418 put it only there).
 */
#ifndef NVITOP_SRC_LIB_NVML_NVML_DEFAULT_H
#define NVITOP_SRC_LIB_NVML_NVML_DEFAULT_H

/* The places tried, for messages ("libnvidia-ml.so.1 and libnvidia-ml.so: <why>"). */
extern const char nvml_default_names[];

/* dlopen() of the first default that loads, or NULL (dlerror() says why the last one failed).
 * Thread-safe. */
void *nvml_default_open(void);

#endif /* NVITOP_SRC_LIB_NVML_NVML_DEFAULT_H */
