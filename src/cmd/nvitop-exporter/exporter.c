/* One sampling pass of the exporter (exporter.h). */
#include "exporter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvitop/host.h>

#include "render.h"
#include "util/text/strbuf.h"

/* The containers of this pass's processes, reusing the last pass's answers; NULL when out of
 * memory.  names[i] points into the new cache. */
static bool resolve_containers(struct exporter *e, const struct nvt_snapshot *snap,
                               const char **names) {
    size_t n = snap->process_count;
    struct container_entry *fresh = calloc(n != 0 ? n : 1, sizeof(*fresh));
    if (fresh == NULL) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const struct nvt_gpu_process *p = &snap->processes[i];
        fresh[i].pid = p->pid;
        fresh[i].create_time = p->host.create_time;
        const struct container_entry *known = NULL;
        for (size_t j = 0; j < e->container_count && known == NULL; j++) {
            const struct container_entry *c = &e->containers[j];
            if (c->pid == p->pid && (c->create_time == p->host.create_time ||
                                     (isnan(c->create_time) && isnan(p->host.create_time)))) {
                known = c;
            }
        }
        if (known != NULL) {
            memcpy(fresh[i].name, known->name, sizeof(fresh[i].name));
        } else if (nvt_host_process_container(e->ctx, p->pid, fresh[i].name,
                                              sizeof(fresh[i].name)) != NVT_OK) {
            fresh[i].name[0] = '\0';
        }
        names[i] = fresh[i].name;
    }
    free(e->containers);
    e->containers = fresh;
    e->container_count = n;
    return true;
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
    bool ok = names != NULL && resolve_containers(e, snap, names);
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
    free(e->containers);
    e->containers = NULL;
    e->container_count = 0;
}
