/* compiler/forward.h: the forward function of a training graph (compiler/forward.c): the plan
 * behind a compiled model's predict(). */
#ifndef GTC_FORWARD_H
#define GTC_FORWARD_H

#include "pipeline.h"

/* The forward graph of g (a loaded graph whose "train" section autodiff has not consumed yet):
 * the outputs g names, but the training loss when it names others (the loss itself when it is
 * the only one), and only the nodes and inputs they read; no donations, no train section. A
 * new verified graph, or NULL with the error in d. */
Graph *forward_graph(const Graph *g, Diag *d);

/* The whole pipeline for a model: for a graph with a "train" section, its forward graph is
 * planned first into *fwd (symbols "gtc_fwd", and g's plan links it as its predict plan), then
 * g itself (the training step). *fwd is NULL for a graph without one. 0, or -1 with d. */
int forward_pipeline(Graph *g, const Target *t, Graph **fwd, Diag *d);

#endif
