/* One sampling pass of the exporter (exporter.h). */
#include "exporter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/host.h>

#include "render.h"
#include "util/text/strbuf.h"

/* container_lookup_fn: the library's reading of the process's cgroup file. */
static void lookup_container(void *arg, uint32_t pid, char *name, size_t size) {
    if (nvt_host_process_container(arg, pid, name, size) != NVT_OK) {
        name[0] = '\0';
    }
}

nvt_status exporter_pass(struct exporter *e, char **text, size_t *len,
                         struct nvt_snapshot **snapshot_out) {
    *text = NULL;
    *len = 0;
    struct nvt_snapshot *snap = NULL;
    nvt_status status = nvt_snapshot_take(e->ctx, EXPORTER_SAMPLE_FLAGS, &snap);
    if (status != NVT_OK) {
        return status;
    }
    struct render_input in = {.hostname = e->hostname, .snapshot = snap};
    struct nvt_net_io *net = NULL;
    struct nvt_disk_io *disk = NULL;
    struct nvt_disk_usage *usage = NULL;
    const char **names = calloc(snap->process_count + 1, sizeof(*names));
    bool ok = names != NULL &&
              container_cache_resolve(&e->containers, snap->processes, snap->process_count,
                                      lookup_container, e->ctx, names);
    /* An unreadable list is an empty one; only memory exhaustion fails the pass. */
    ok = ok && nvt_host_net_io(e->ctx, &net, &in.net_count) != NVT_ERR_NO_MEMORY;
    ok = ok && nvt_host_disk_io(e->ctx, &disk, &in.disk_count) != NVT_ERR_NO_MEMORY;
    ok = ok && nvt_host_disk_usage(e->ctx, &usage, &in.usage_count) != NVT_ERR_NO_MEMORY;
    in.net = net;
    in.disk = disk;
    in.usage = usage;
    in.containers = names;
    struct strbuf out = STRBUF_INIT;
    /* Room for the last pass's text at once, rather than growing by doubling each time. */
    ok = ok && strbuf_reserve(&out, e->last_len + e->last_len / 8 + 1);
    ok = ok && render_metrics(&in, &out);
    nvt_free(net);
    nvt_free(disk);
    nvt_free(usage);
    free(names);
    if (!ok) {
        strbuf_fini(&out);
        nvt_snapshot_free(snap);
        return NVT_ERR_NO_MEMORY;
    }
    *len = out.len;
    e->last_len = out.len;
    *text = strbuf_detach(&out);
    if (snapshot_out != NULL) {
        *snapshot_out = snap;
    } else {
        nvt_snapshot_free(snap);
    }
    return *text != NULL ? NVT_OK : NVT_ERR_NO_MEMORY;
}

void exporter_fini(struct exporter *e) {
    container_cache_fini(&e->containers);
}
