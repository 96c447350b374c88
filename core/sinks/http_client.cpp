#include "sinks/http_client.hpp"

#include <curl/curl.h>

#include <utility>

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace tcpscope {

namespace {

constexpr size_t kMaxBodyBytes = 1 << 20;  // an error text or a count; never a large result
constexpr long kMaxConnectMs = 3000;

size_t appendBody(char* data, size_t size, size_t count, void* target) {
    auto& body = *static_cast<std::string*>(target);
    const size_t bytes = size * count;
    body.append(data, std::min(bytes, kMaxBodyBytes - std::min(body.size(), kMaxBodyBytes)));
    return bytes;
}

void initialiseCurlOnce() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

HttpClient::HttpClient(HttpAccess access) : access_(std::move(access)) {
    initialiseCurlOnce();
    curl_ = curl_easy_init();
    if (curl_ == nullptr) {
        throw std::runtime_error("libcurl could not start");
    }
}

HttpClient::~HttpClient() {
    curl_easy_cleanup(static_cast<CURL*>(curl_));
}

std::string HttpClient::escape(std::string_view text) const {
    char* escaped = curl_easy_escape(static_cast<CURL*>(curl_), text.data(), static_cast<int>(text.size()));
    std::string result = escaped != nullptr ? escaped : "";
    curl_free(escaped);
    return result;
}

HttpResult HttpClient::post(const std::string& url, std::string_view body, double timeoutSeconds) {
    auto* curl = static_cast<CURL*>(curl_);
    curl_easy_reset(curl);  // keeps the connection cache
    HttpResult result;
    const auto timeoutMs = static_cast<long>(timeoutSeconds * 1000);
    curl_slist* headers = curl_slist_append(nullptr, "Expect:");  // no wait for "100 Continue"
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeoutMs);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeoutMs, kMaxConnectMs));
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &result.body);
    if (!access_.user.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERNAME, access_.user.c_str());
        curl_easy_setopt(curl, CURLOPT_PASSWORD, access_.password.c_str());
    }
    if (!access_.caFile.empty()) {
        curl_easy_setopt(curl, CURLOPT_CAINFO, access_.caFile.c_str());
    }
    const CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (code == CURLE_OK) {
        result.outcome = HttpResult::Outcome::Answered;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
        return result;
    }
    result.error = curl_easy_strerror(code);
    // Without a connection (or a TLS session) the server saw nothing; anything else (a timeout, a
    // connection lost, also on a kept-alive connection) may have come after the server took the request.
    const bool noConnection = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST ||
                              code == CURLE_URL_MALFORMAT || code == CURLE_UNSUPPORTED_PROTOCOL ||
                              code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION ||
                              code == CURLE_SSL_CACERT_BADFILE;
    result.outcome = noConnection ? HttpResult::Outcome::NotDelivered : HttpResult::Outcome::Unknown;
    return result;
}

}  // namespace tcpscope
