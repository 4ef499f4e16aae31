package dev.ovnj.lb;

/**
 * One backend's health changed (see {@link EngineListener#onBackendHealth}).
 *
 * @param owner the owner
 * @param spec the spec's name
 * @param backend the backend, {@code IP:PORT} or {@code [IPv6]:PORT} as OVN writes it
 * @param before what it was
 * @param now what it is
 */
public record BackendHealthChange(String owner, String spec, String backend, BackendHealth before, BackendHealth now) {
}
