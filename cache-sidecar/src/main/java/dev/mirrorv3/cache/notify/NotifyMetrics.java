package dev.mirrorv3.cache.notify;

/** Counters of one cache's notifications (one POST to one address counts once). */
public interface NotifyMetrics {

    void delivered();

    void skipped();

    void failed();

    void retried();

    void batchSent(int keys, int bodyBytes);

    NotifyMetrics NONE = new NotifyMetrics() {
        @Override public void delivered() { }
        @Override public void skipped() { }
        @Override public void failed() { }
        @Override public void retried() { }
        @Override public void batchSent(int keys, int bodyBytes) { }
    };
}
