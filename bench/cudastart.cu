/* cudastart.cu — where a process's CUDA start goes, call by call, for
 * bench/probe.sh: run alone and many at once, it shows whether the starts
 * of a parallel test suite wait on each other.  Prints milliseconds.
 * How it ends, for timing the whole process from outside: "free" (the
 * default) frees what it took and returns, "keep" returns without
 * freeing, "_exit" leaves by _exit without freeing, and "reset" calls
 * cudaDeviceReset first. */
#include <cstdio>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <cuda_runtime.h>

static double ms(void)
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    const char *end = argc > 1 ? argv[1] : "free";
    double t0 = ms(), t;
    int n = 0;
    cudaGetDeviceCount(&n);
    t = ms(); printf("count %.1f", t - t0); t0 = t;
    cudaSetDevice(0);
    cudaFree(0);
    t = ms(); printf(" ctx %.1f", t - t0); t0 = t;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    t = ms(); printf(" props %.1f", t - t0); t0 = t;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    void *d, *h;
    cudaMalloc(&d, 64 << 20);
    t = ms(); printf(" stream+malloc64M %.1f", t - t0); t0 = t;
    cudaHostAlloc(&h, 16 << 20, cudaHostAllocDefault);
    t = ms(); printf(" hostalloc16M %.1f", t - t0); t0 = t;
    if (strcmp(end, "free") == 0) {
        cudaFreeHost(h);
        cudaFree(d);
        cudaStreamDestroy(s);
        t = ms(); printf(" free %.1f", t - t0);
    }
    printf("\n");
    fflush(stdout);
    if (strcmp(end, "_exit") == 0) _exit(0);
    if (strcmp(end, "reset") == 0) cudaDeviceReset();
    return 0;
}
