#pragma once
#include <string>
#include <string_view>

namespace tcpscope {

/// What became of an HTTP request.
struct HttpResult {
    enum class Outcome {
        Answered,      ///< the server answered (any status)
        NotDelivered,  ///< no connection was made: the server cannot have seen the request
        Unknown,       ///< the request may have reached the server (timeout, connection lost)
    };
    Outcome outcome = Outcome::NotDelivered;
    long status = 0;    ///< the HTTP status when answered
    std::string body;   ///< the answer's body (bounded)
    std::string error;  ///< libcurl's reason when not answered

    [[nodiscard]] bool ok() const { return outcome == Outcome::Answered && status == 200; }
};

/// Who the client is and whom it trusts: HTTP basic authentication when `user` is set; for https,
/// the server's certificate checked against `caFile` if set, else the system's CAs.
struct HttpAccess {
    std::string user;
    std::string password;
    std::string caFile;
};

/// A small HTTP/1.1 client over libcurl: POSTs with a total timeout, keeping the connection alive
/// between requests. libcurl rather than a socket of our own: it handles chunked answers (ClickHouse
/// sends them), keep-alive, timeouts at every step and, later, TLS and proxies.
class HttpClient {
public:
    explicit HttpClient(HttpAccess access = {});
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    /// POSTs `body` to `url`; gives up after `timeoutSeconds` in all.
    HttpResult post(const std::string& url, std::string_view body, double timeoutSeconds);

    /// `text` percent-encoded for a URL's query.
    [[nodiscard]] std::string escape(std::string_view text) const;

private:
    HttpAccess access_;
    void* curl_;  // CURL*, kept for its connection cache
};

}  // namespace tcpscope
