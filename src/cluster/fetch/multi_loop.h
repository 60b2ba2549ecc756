/*
 * A curl multi handle driven through epoll with curl_multi_socket_action(): curl says which
 * sockets it waits on and when it wants a timeout, and is then told which socket is ready.  A
 * wake-up costs only the transfers whose socket it concerns (curl_multi_perform() visits every
 * transfer in progress and polls each socket again, which with 200 nodes read together was most
 * of curl's time and of the cluster view's system calls).  Linux-only, like the cluster view.
 */
#ifndef NVITOP_SRC_CLUSTER_FETCH_MULTI_LOOP_H
#define NVITOP_SRC_CLUSTER_FETCH_MULTI_LOOP_H

struct curl_api;
struct multi_loop;

/* A new multi handle with its epoll set; max_connects is CURLMOPT_MAXCONNECTS (0: curl's
 * default).  Aborts when out of memory or descriptors, as the rest of the fetch code does. */
struct multi_loop *multi_loop_new(const struct curl_api *curl, long max_connects);

/* The multi handle (CURLM *), to add and remove transfers on. */
void *multi_loop_multi(const struct multi_loop *loop);

/* Wait at most max_ms (less when curl's timer falls due sooner) for one of curl's sockets, and
 * let curl act on the ready sockets and on its timer.  Finished transfers are then read with
 * curl_multi_info_read() (fetch_transfer_done()). */
void multi_loop_run(struct multi_loop *loop, int max_ms);

/* Clean up the multi handle (remove its transfers first) and the epoll set; NULL is ignored. */
void multi_loop_free(struct multi_loop *loop);

#endif /* NVITOP_SRC_CLUSTER_FETCH_MULTI_LOOP_H */
