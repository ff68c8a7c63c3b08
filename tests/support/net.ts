import net from "node:net";

/** A loopback port nobody listens on right now (for a server a test starts, or one it expects to find closed). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
