/*
 * Stand-in GPU jobs for the Windows tests (scripts/wine-sim.sh): `standin.exe N` starts N copies
 * of itself whose command lines look like training jobs ("python.exe train.py --rank 1 ..."),
 * prints NVT_STANDIN_<i>=<pid> for each, and keeps them until the file STOP exists (`standin.exe
 * N STOP`); then it ends them.  A file, not the end of standard input: any wine process started
 * meanwhile, or the wineserver it starts, may inherit the pipe's other end and keep it open for
 * ever.  The jobs are in a job object that ends them with it, whatever happens.
 */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

#define MAX_STANDINS 64

static void run_job(void) {
    /* Some CPU time, then idle: the monitor's CPU column has something to show. */
    volatile unsigned long spin = 0;
    for (unsigned long i = 0; i < 20000000UL; i++) {
        spin += i;
    }
    Sleep(INFINITE);
}

int main(int argc, char **argv) {
    if (GetEnvironmentVariableW(L"NVT_STANDIN_JOB", NULL, 0) > 0) {
        run_job();
        return 0;
    }
    int count = argc > 2 ? atoi(argv[1]) : 0;
    if (count < 1 || count > MAX_STANDINS) {
        fprintf(stderr,
                "usage: standin.exe N STOP (N from 1 to %d; ends when the file STOP exists)\n",
                MAX_STANDINS);
        return 2;
    }
    HANDLE job = CreateJobObjectW(NULL, NULL);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits = {0};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (job == NULL ||
        !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof(limits))) {
        fprintf(stderr, "standin.exe: no job object (error %lu)\n", GetLastError());
        return 1;
    }
    wchar_t self[MAX_PATH];
    if (GetModuleFileNameW(NULL, self, MAX_PATH) == 0) {
        return 1;
    }
    SetEnvironmentVariableW(L"NVT_STANDIN_JOB", L"1");
    HANDLE children[MAX_STANDINS];
    for (int i = 0; i < count; i++) {
        wchar_t line[256];
        _snwprintf(line, 256,
                   L"python.exe train.py --rank %d --epochs 100 --data \"C:\\data\\set %d\"", i + 1,
                   i + 1);
        line[255] = L'\0';
        STARTUPINFOW si = {.cb = sizeof(si)};
        PROCESS_INFORMATION pi;
        if (!CreateProcessW(self, line, NULL, NULL, FALSE, CREATE_SUSPENDED, NULL, NULL, &si,
                            &pi)) {
            fprintf(stderr, "standin.exe: CreateProcess failed (error %lu)\n", GetLastError());
            return 1;
        }
        AssignProcessToJobObject(job, pi.hProcess);
        ResumeThread(pi.hThread);
        CloseHandle(pi.hThread);
        children[i] = pi.hProcess;
        printf("NVT_STANDIN_%d=%lu\n", i + 1, pi.dwProcessId);
        fflush(stdout);
    }
    while (GetFileAttributesA(argv[2]) == INVALID_FILE_ATTRIBUTES) {
        Sleep(100);
    }
    for (int i = 0; i < count; i++) {
        TerminateProcess(children[i], 0);
        WaitForSingleObject(children[i], 5000);
        CloseHandle(children[i]);
    }
    CloseHandle(job);
    return 0;
}
