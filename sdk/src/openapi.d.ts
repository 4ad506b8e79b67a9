// Generated from sdk/openapi.json by openapi-typescript: do not edit. Regenerate with
// `npm run sdk:generate`; test/sdk/generated-types.test.ts fails when this file is stale.
export interface paths {
    "/api/v2/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Public: no key, not counted against any limit, no rate-limit headers.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference as an HTML page (works offline)
         * @description Public: no key, not counted against any limit, no rate-limit headers.
         */
        get: operations["getDocsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Validate the key and show the account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The account that owns the key. */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Account"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/me/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credit summary */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Balance and totals, derived from the ledger. */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Credits"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/me/webhook-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Secret that signs this account's webhooks
         * @description Webhook POSTs carry `obscura-timestamp` and `obscura-signature: v1=<hex>`, where hex = HMAC-SHA256(secret, timestamp + "\n" + sha256_hex(raw body)). Refuse timestamps older than 5 minutes.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The secret. */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookSecret"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/features": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Feature catalog with prices and parameters */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every feature. */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FeatureCatalog"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/videos/background-blur": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Video background blur
         * @description Blurs everything behind the people in a video.
         *
         *     Price: 2 credit(s) per started 10 s of video, reserved on creation, settled on completion, refunded on failure.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["videoBackgroundBlur"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/videos/face-blur": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Video face blur
         * @description Blurs, pixelates or covers with an emoji every face, tracked across frames.
         *
         *     Price: 2 credit(s) per started 10 s of video, reserved on creation, settled on completion, refunded on failure.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["videoFaceBlur"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/videos/license-plate-blur": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Video licence plate blur
         * @description Blurs every licence plate, tracked across frames.
         *
         *     Price: 2 credit(s) per started 10 s of video, reserved on creation, settled on completion, refunded on failure.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["videoLicensePlateBlur"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/videos/object-removal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Video object removal
         * @description Removes the named object and fills in what is behind it.
         *
         *     Price: 5 credit(s) per started 10 s of video, reserved on creation, settled on completion, refunded on failure.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["videoObjectRemoval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/videos/blur-anything": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Video blur anything
         * @description Blurs whatever the prompt names, tracked across frames.
         *
         *     Price: 3 credit(s) per started 10 s of video, reserved on creation, settled on completion, refunded on failure.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["videoBlurAnything"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/videos/face-anonymization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Video face anonymization
         * @description Replaces every face with a generated face that is not the same person; a face it cannot make another person is blurred.
         *
         *     Price: 5 credit(s) per started 10 s of video, reserved on creation, settled on completion, refunded on failure.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["videoFaceAnonymization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/images/blur-background": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Image background blur
         * @description Blurs the background behind the subject.
         *
         *     Price: 2 credit(s) per request, charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imageBlurBackground"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/images/remove-background": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Image background removal
         * @description Cuts out the subject: transparent PNG or a flat colour.
         *
         *     Price: 2 credit(s) per request, charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imageRemoveBackground"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/images/portrait-enhance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Portrait enhancement
         * @description Enhances the face and adds a depth-of-field background blur.
         *
         *     Price: 3 credit(s) per request, charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imagePortraitEnhance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/images/face-blur": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Image face blur
         * @description Blurs or pixelates every face.
         *
         *     Price: 1 credit(s) per request, charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imageFaceBlur"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/images/license-plate-blur": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Image licence plate blur
         * @description Blurs or pixelates every licence plate.
         *
         *     Price: 1 credit(s) per request, charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imageLicensePlateBlur"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/images/blur-anything": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Image blur anything
         * @description Blurs whatever the prompt names.
         *
         *     Price: 2 credit(s) per request, charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imageBlurAnything"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/detect/nsfw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * NSFW detection
         * @description Classifies an image (or a video, sampling up to 15 frames) as NSFW or not.
         *
         *     Price: 1 credit(s) per request (2 for a video), charged only on success.
         *
         *     Send `Idempotency-Key` to make retries safe.
         */
        post: operations["imageNsfwDetection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Job status
         * @description Poll every few seconds; each poll counts against the daily limit. `error` carries the failure details of a failed job.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    job_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job. */
                200: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobRecord"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `job_not_found`: No job with this id belongs to the caller. */
                404: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobNotFoundError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/uploads/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an upload URL for a image
         * @description Returns a signed `upload_url` valid for one hour. `PUT` the file to it (with Content-Length), then pass `image_url` to a image feature. Accepted: PNG, JPEG, WEBP, HEIC, checked from the bytes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["UploadRequest"];
                };
            };
            responses: {
                /** @description Upload ticket. */
                201: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadTicket"];
                    };
                };
                /**
                 * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
                 *
                 *     `invalid_json`: The body is not valid JSON.
                 */
                400: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part). */
                413: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RequestTooLargeError"];
                    };
                };
                /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
                415: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/uploads/video": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an upload URL for a video
         * @description Returns a signed `upload_url` valid for one hour. `PUT` the file to it (with Content-Length), then pass `video_url` to a video feature. Accepted: MP4, MOV, checked from the bytes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["UploadRequest"];
                };
            };
            responses: {
                /** @description Upload ticket. */
                201: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadTicket"];
                    };
                };
                /**
                 * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
                 *
                 *     `invalid_json`: The body is not valid JSON.
                 */
                400: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"];
                    };
                };
                /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnauthorizedError"];
                    };
                };
                /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
                405: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        Allow: components["headers"]["Allow"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MethodNotAllowedError"];
                    };
                };
                /** @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part). */
                413: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RequestTooLargeError"];
                    };
                };
                /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
                415: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                    };
                };
                /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
                429: {
                    headers: {
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Retry-After": components["headers"]["Retry-After"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RateLimitedError"];
                    };
                };
                /** @description `internal_error`: An unexpected failure; nothing was charged. */
                500: {
                    headers: {
                        /** @description Requests allowed per UTC day. */
                        "X-RateLimit-Limit"?: number;
                        /** @description Requests left today. */
                        "X-RateLimit-Remaining"?: number;
                        /** @description Unix time of the next reset (00:00 UTC). */
                        "X-RateLimit-Reset"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InternalErrorError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/uploads/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload target (the upload_url)
         * @description The signed URL itself authorizes the upload: no bearer key, and no rate-limit headers. Send the file as the raw body with a `Content-Length`; any `Content-Type` is accepted, the format is read from the magic bytes. Each URL takes one successful upload.
         */
        put: operations["uploadPut"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/results/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A processed image or video (the result_url), or a detections document (the detections_url)
         * @description Public: the name is unguessable (128 random bits), so no key is needed and the URL can be embedded. No rate-limit headers.
         */
        get: operations["getResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/media/{upload_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An uploaded file (the image_url or video_url of an upload)
         * @description The uploaded bytes, to the account that uploaded them (for 24 hours after the upload). Counts against the daily limit like every authenticated request.
         */
        get: operations["getUploadedMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /**
                 * @description Machine-readable code; the complete list is in the API description.
                 * @enum {string}
                 */
                code: "invalid_request" | "invalid_json" | "invalid_media_url" | "media_url_not_allowed" | "unauthorized" | "insufficient_credits" | "forbidden" | "plan_restricted" | "not_found" | "job_not_found" | "media_not_found" | "method_not_allowed" | "idempotency_conflict" | "upload_expired" | "request_too_large" | "media_too_large" | "unsupported_media_type" | "unsupported_media_format" | "corrupt_media" | "media_unreachable" | "unsupported_prompt" | "object_not_found" | "rate_limited" | "internal_error" | "not_implemented" | "compute_unavailable";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @description The HTTP status. */
                status: number;
            };
        };
        /** @description The route exists but not with this HTTP method. */
        MethodNotAllowedError: {
            error: {
                /** @enum {string} */
                code: "method_not_allowed";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 405;
            };
        };
        /** @description An unexpected failure; nothing was charged. */
        InternalErrorError: {
            error: {
                /** @enum {string} */
                code: "internal_error";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 500;
            };
        };
        Account: {
            /** @enum {boolean} */
            success: true;
            /** @example acct_9fK2mQ7xLp3V1cRt */
            id: string;
            /** @example Ada Lovelace */
            name: string | null;
            /** @example ada@example.com */
            email: string;
            is_developer: boolean;
            available_credits: number;
            /** @enum {string} */
            tier: "free" | "pro" | "enterprise";
        };
        /** @description The API key is missing, malformed, unknown or revoked. */
        UnauthorizedError: {
            error: {
                /** @enum {string} */
                code: "unauthorized";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 401;
            };
        };
        /** @description The daily request limit of the account is used up; see Retry-After. */
        RateLimitedError: {
            error: {
                /** @enum {string} */
                code: "rate_limited";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 429;
            };
        };
        Credits: {
            /** @enum {boolean} */
            success: true;
            available_credits: number;
            total_purchased: number;
            total_spent: number;
            /** @description Held by running jobs: available = purchased - spent - reserved. */
            reserved_credits: number;
            active_api_keys: number;
        };
        WebhookSecret: {
            /** @enum {boolean} */
            success: true;
            webhook_secret: string;
        };
        FeatureCatalog: {
            /** @enum {boolean} */
            success: true;
            features: components["schemas"]["FeatureEntry"][];
        };
        FeatureEntry: {
            /** @example image.face-blur */
            id: string;
            name: string;
            description: string;
            /** @enum {string} */
            media: "image" | "video";
            /** @enum {string} */
            method: "POST";
            /** @example /api/v2/images/face-blur */
            path: string;
            /** @description Price in credits per unit. */
            credits: number;
            /** @description request, or video_10s: each started 10 seconds of video. */
            unit: string;
            /** @description Whether a compute instance serves this feature right now. */
            available: boolean;
            /** @description JSON Schema of the JSON request body, as the endpoint's requestBody in this document states it. */
            parameters: {
                [key: string]: unknown;
            };
        };
        VideoJob: {
            /** @enum {boolean} */
            success: true;
            /** @example job_Zt3q9LkV2xWm8PcR1nYb4A */
            job_id: string;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed";
            /**
             * @description The feature submitted, e.g. face-blur.
             * @example face-blur
             */
            feature: string;
            /** @description Credits reserved for the job. */
            credits_used: number;
            /** @description Balance after the reservation. */
            remaining_credits: number;
        };
        /** @description A field is missing, has the wrong type or breaks a rule; the message names the field and the rule. */
        InvalidRequestError: {
            error: {
                /** @enum {string} */
                code: "invalid_request";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 400;
            };
        };
        /** @description The body is not valid JSON. */
        InvalidJsonError: {
            error: {
                /** @enum {string} */
                code: "invalid_json";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 400;
            };
        };
        /** @description The media URL is malformed, not http(s), or carries credentials. */
        InvalidMediaUrlError: {
            error: {
                /** @enum {string} */
                code: "invalid_media_url";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 400;
            };
        };
        /** @description The media URL points at localhost, a private, link-local or reserved address, or is a signed URL. */
        MediaUrlNotAllowedError: {
            error: {
                /** @enum {string} */
                code: "media_url_not_allowed";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 400;
            };
        };
        /** @description The account has fewer credits than the request costs; nothing ran. */
        InsufficientCreditsError: {
            error: {
                /** @enum {string} */
                code: "insufficient_credits";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 402;
            };
        };
        /** @description The account's plan does not allow this option (for example is_watermark=false). */
        PlanRestrictedError: {
            error: {
                /** @enum {string} */
                code: "plan_restricted";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 403;
            };
        };
        /** @description The uploaded media does not exist, has expired, or belongs to another account. */
        MediaNotFoundError: {
            error: {
                /** @enum {string} */
                code: "media_not_found";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 404;
            };
        };
        /** @description The Idempotency-Key was already used with a different request, or that request is still running. */
        IdempotencyConflictError: {
            error: {
                /** @enum {string} */
                code: "idempotency_conflict";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 409;
            };
        };
        /** @description The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part). */
        RequestTooLargeError: {
            error: {
                /** @enum {string} */
                code: "request_too_large";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 413;
            };
        };
        /** @description The media exceeds the byte, pixel or duration limit. */
        MediaTooLargeError: {
            error: {
                /** @enum {string} */
                code: "media_too_large";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 413;
            };
        };
        /** @description The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
        UnsupportedMediaTypeError: {
            error: {
                /** @enum {string} */
                code: "unsupported_media_type";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 415;
            };
        };
        /** @description The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded. */
        UnsupportedMediaFormatError: {
            error: {
                /** @enum {string} */
                code: "unsupported_media_format";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 422;
            };
        };
        /** @description The media has a supported format but cannot be decoded. */
        CorruptMediaError: {
            error: {
                /** @enum {string} */
                code: "corrupt_media";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 422;
            };
        };
        /** @description The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects). */
        MediaUnreachableError: {
            error: {
                /** @enum {string} */
                code: "media_unreachable";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 422;
            };
        };
        /** @description The feature is not available on this deployment yet; nothing was charged. */
        NotImplementedError: {
            error: {
                /** @enum {string} */
                code: "not_implemented";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 501;
            };
        };
        /** @description No compute instance could take the request; retry later. Nothing was charged. */
        ComputeUnavailableError: {
            error: {
                /** @enum {string} */
                code: "compute_unavailable";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 503;
            };
        };
        /** @description The prompt or object_text names nothing the service can find; the message lists what it can. */
        UnsupportedPromptError: {
            error: {
                /** @enum {string} */
                code: "unsupported_prompt";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 422;
            };
        };
        ImageResult: {
            /** @enum {boolean} */
            success: true;
            /** Format: uri */
            result_url: string;
            /** @description Present with return_detections: every box hidden in the image (an empty list when none). */
            detections?: components["schemas"]["Detection"][];
            credits_used: number;
            remaining_credits: number;
        };
        /** @description A box that was hidden, in relative coordinates of the output image (EXIF orientation applied). */
        Detection: {
            /** @description Left edge, relative to the width (0..1). */
            x: number;
            /** @description Top edge, relative to the height (0..1). */
            y: number;
            /** @description Width, relative to the width. */
            w: number;
            /** @description Height, relative to the height. */
            h: number;
            /** @description The detector's confidence (0..1). */
            score: number;
            /**
             * @description What it is: face, license plate, person, text, or a COCO class (car, dog, ...).
             * @example face
             */
            label: string;
        };
        NsfwResult: {
            /** @enum {boolean} */
            success: true;
            is_nsfw: boolean;
            /** @description Probability-like score in 0..1 that the media is NSFW; is_nsfw is score >= the documented threshold. */
            score: number | null;
            credits_used: number;
            remaining_credits: number;
        };
        JobRecord: {
            /** @enum {boolean} */
            success: true;
            /** @example job_Zt3q9LkV2xWm8PcR1nYb4A */
            job_id: string;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed";
            /** @example face-blur */
            feature: string;
            /** @description Percentage of the work done. */
            progress: number;
            /** @description Present when completed. */
            result_url?: string;
            /** @description Present when completed and the job was asked for return_detections: a JSON DetectionsDocument, served like result_url. */
            detections_url?: string;
            credits_used?: number;
            error?: components["schemas"]["JobError"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description Why a job failed. Present only when status is failed. */
        JobError: {
            code: string;
            message: string;
        };
        /** @description No job with this id belongs to the caller. */
        JobNotFoundError: {
            error: {
                /** @enum {string} */
                code: "job_not_found";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 404;
            };
        };
        UploadTicket: {
            /** @enum {boolean} */
            success: true;
            /** @example q3ZkL9vT2mXw8RcP1nYbAg */
            upload_id: string;
            /**
             * @description PUT the file here, with a Content-Length.
             * @example https://obscura.example.com/uploads/eyJpZCI6InEzWmtMOXZUMm1YdzhSY1AxbllQQWciLCJleHAiOjE3OTg3NjE2MDB9.8Xr2
             */
            upload_url: string;
            /** @enum {string} */
            method: "PUT";
            /**
             * @description Pass this to an image feature after the upload.
             * @example https://obscura.example.com/media/q3ZkL9vT2mXw8RcP1nYbAg
             */
            image_url?: string;
            /**
             * @description Pass this to a video feature after the upload.
             * @example https://obscura.example.com/media/q3ZkL9vT2mXw8RcP1nYbAg
             */
            video_url?: string;
            /**
             * Format: date-time
             * @description The upload URL is valid until then; the media URL for 24 hours after upload.
             */
            expires_at: string;
            max_bytes: number;
            accepted_formats: string[];
        };
        UploadRequest: {
            /** @description Informational only: the content is checked by its bytes. */
            content_type?: string;
        };
        UploadDone: {
            /** @enum {boolean} */
            success: true;
            upload_id: string;
            format: string;
            size_bytes: number;
            media_url: string;
        };
        /** @description The upload URL has expired or was already used. */
        UploadExpiredError: {
            error: {
                /** @enum {string} */
                code: "upload_expired";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 410;
            };
        };
        /** @description The JSON document at a job's detections_url. */
        DetectionsDocument: {
            /** @enum {string} */
            media: "image" | "video";
            /** @description Width in pixels of the output (boxes are relative to it). */
            width: number;
            height: number;
            /** @description Video: frames per second. */
            fps?: number;
            /** @description Video: frames in the output, the length of `frames`. */
            frame_count?: number;
            /** @description One entry per frame, in order, every frame included (an empty list where nothing was hidden); an image has one. */
            frames: {
                /** @description Frame number from 0. */
                index: number;
                /** @description index / fps. */
                time_seconds: number;
                detections: (components["schemas"]["TrackedDetection"] | components["schemas"]["Detection"])[];
            }[];
        };
        /** @description A box hidden in one frame: the tracker's box (the detection plus a margin that grows with the distance to the nearest detection), in relative coordinates; score is the track's latest detection score. */
        TrackedDetection: components["schemas"]["Detection"] & {
            /** @description The track the box belongs to: one id per object for its whole life in the video, never reused. */
            track_id: number;
            /**
             * @description detected: the detector found it in this frame; interpolated: between two detections; predicted: carried on after one; backfilled: before the track's first detection.
             * @enum {string}
             */
            source: "detected" | "predicted" | "interpolated" | "backfilled";
        };
        /** @description No such route. */
        NotFoundError: {
            error: {
                /** @enum {string} */
                code: "not_found";
                /** @description Human-readable explanation naming the problem. */
                message: string;
                /** @enum {number} */
                status: 404;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests allowed per UTC day. */
        "X-RateLimit-Limit": number;
        /** @description Requests left today. */
        "X-RateLimit-Remaining": number;
        /** @description Unix time of the next reset (00:00 UTC). */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before retrying (429: until the daily limit resets; 503: until compute is expected back). */
        "Retry-After": number;
        /** @description The methods this path answers, comma-separated. */
        Allow: string;
        /** @description Present when this is the stored first answer to a request with the same Idempotency-Key (nothing ran or was charged again). */
        "Idempotent-Replayed": "true";
        /** @description The `Prefer: respond-async` preference was honoured (RFC 7240). */
        "Preference-Applied": "respond-async";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
        };
    };
    getDocsPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API reference as an HTML page (works offline) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
        };
    };
    videoBackgroundBlur: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the video, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    video_url: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Add a visible watermark. false is allowed on the pro and enterprise plans only (403 plan_restricted otherwise).
                     * @default true
                     */
                    is_watermark?: boolean;
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "video" file part. */
                    video_url?: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Add a visible watermark. false is allowed on the pro and enterprise plans only (403 plan_restricted otherwise).
                     * @default true
                     */
                    is_watermark?: boolean;
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    video?: string;
                };
            };
        };
        responses: {
            /** @description Job accepted; poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `plan_restricted`: The account's plan does not allow this option (for example is_watermark=false). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRestrictedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    videoFaceBlur: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the video, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    video_url: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description gaussian, pixelated or emoji. Wins over pixelated; when absent it follows pixelated.
                     * @enum {string}
                     */
                    face_blur_mode?: "gaussian" | "pixelated" | "emoji";
                    /**
                     * @description Emoji drawn over each face in emoji mode.
                     * @default 😎
                     * @example 😎
                     */
                    emoji?: string;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "video" file part. */
                    video_url?: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description gaussian, pixelated or emoji. Wins over pixelated; when absent it follows pixelated.
                     * @enum {string}
                     */
                    face_blur_mode?: "gaussian" | "pixelated" | "emoji";
                    /**
                     * @description Emoji drawn over each face in emoji mode.
                     * @default 😎
                     * @example 😎
                     */
                    emoji?: string;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    video?: string;
                };
            };
        };
        responses: {
            /** @description Job accepted; poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `plan_restricted`: The account's plan does not allow this option (for example is_watermark=false). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRestrictedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    videoLicensePlateBlur: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the video, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    video_url: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "video" file part. */
                    video_url?: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    video?: string;
                };
            };
        };
        responses: {
            /** @description Job accepted; poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `plan_restricted`: The account's plan does not allow this option (for example is_watermark=false). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRestrictedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    videoObjectRemoval: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the video, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    video_url: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description What to remove, at most 40 characters.
                     * @example person
                     */
                    object_text: string;
                    /** @description Guidance for the background fill (see README). */
                    prompt_bg?: string;
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "video" file part. */
                    video_url?: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description What to remove, at most 40 characters.
                     * @example person
                     */
                    object_text: string;
                    /** @description Guidance for the background fill (see README). */
                    prompt_bg?: string;
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    video?: string;
                };
            };
        };
        responses: {
            /** @description Job accepted; poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `plan_restricted`: The account's plan does not allow this option (for example is_watermark=false). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRestrictedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             *
             *     `unsupported_prompt`: The prompt or object_text names nothing the service can find; the message lists what it can.
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"] | components["schemas"]["UnsupportedPromptError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    videoBlurAnything: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the video, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    video_url: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description What to blur across frames.
                     * @example car
                     */
                    prompt: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Mosaic strength when pixelated is true: larger means coarser blocks (see README for the mapping).
                     * @default 180
                     */
                    pixelation_strength?: number;
                    /**
                     * @description Frames sent through the detector at once.
                     * @default 8
                     */
                    sam3_batch_size?: number;
                    /**
                     * @description Frames processed as one chunk (tracking look-ahead window).
                     * @default 128
                     */
                    sam3_chunk_size?: number;
                    /**
                     * @description gaussian or pixelated; when absent it follows pixelated.
                     * @enum {string}
                     */
                    blur_anything_blur_mode?: "gaussian" | "pixelated";
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "video" file part. */
                    video_url?: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description What to blur across frames.
                     * @example car
                     */
                    prompt: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Mosaic strength when pixelated is true: larger means coarser blocks (see README for the mapping).
                     * @default 180
                     */
                    pixelation_strength?: number;
                    /**
                     * @description Frames sent through the detector at once.
                     * @default 8
                     */
                    sam3_batch_size?: number;
                    /**
                     * @description Frames processed as one chunk (tracking look-ahead window).
                     * @default 128
                     */
                    sam3_chunk_size?: number;
                    /**
                     * @description gaussian or pixelated; when absent it follows pixelated.
                     * @enum {string}
                     */
                    blur_anything_blur_mode?: "gaussian" | "pixelated";
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    video?: string;
                };
            };
        };
        responses: {
            /** @description Job accepted; poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `plan_restricted`: The account's plan does not allow this option (for example is_watermark=false). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRestrictedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             *
             *     `unsupported_prompt`: The prompt or object_text names nothing the service can find; the message lists what it can.
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"] | components["schemas"]["UnsupportedPromptError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    videoFaceAnonymization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the video, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    video_url: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Add a visible watermark. false is allowed on the pro and enterprise plans only (403 plan_restricted otherwise).
                     * @default true
                     */
                    is_watermark?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "video" file part. */
                    video_url?: string;
                    /** @description Duration of the video in seconds, used to estimate the credits reserved (at most 600, the longest video accepted). When absent the service probes the video. */
                    duration_seconds?: number;
                    /**
                     * Format: uri
                     * @description Public https URL that receives the job record (signed) when the job completes or fails. Refused: http and other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     */
                    webhook_url?: string;
                    /**
                     * @description Add a visible watermark. false is allowed on the pro and enterprise plans only (403 plan_restricted otherwise).
                     * @default true
                     */
                    is_watermark?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    video?: string;
                };
            };
        };
        responses: {
            /** @description Job accepted; poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `plan_restricted`: The account's plan does not allow this option (for example is_watermark=false). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRestrictedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imageBlurBackground: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
                /** @description `respond-async` runs the request as a job (202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the image, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    image_url: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "image" file part. */
                    image_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    image?: string;
                };
            };
        };
        responses: {
            /** @description Processed image. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "Preference-Applied": components["headers"]["Preference-Applied"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imageRemoveBackground: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
                /** @description `respond-async` runs the request as a job (202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the image, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    image_url: string;
                    /**
                     * @description true: transparent PNG; false: background filled with background_color.
                     * @default true
                     */
                    output_transparent?: boolean;
                    /**
                     * @description Fill colour used when output_transparent is false.
                     * @default #00FF00
                     * @example #00FF00
                     */
                    background_color?: string;
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "image" file part. */
                    image_url?: string;
                    /**
                     * @description true: transparent PNG; false: background filled with background_color.
                     * @default true
                     */
                    output_transparent?: boolean;
                    /**
                     * @description Fill colour used when output_transparent is false.
                     * @default #00FF00
                     * @example #00FF00
                     */
                    background_color?: string;
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    image?: string;
                };
            };
        };
        responses: {
            /** @description Processed image. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "Preference-Applied": components["headers"]["Preference-Applied"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imagePortraitEnhance: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
                /** @description `respond-async` runs the request as a job (202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the image, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    image_url: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /** @default true */
                    enhance_face?: boolean;
                    /** @default true */
                    depth_effect?: boolean;
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "image" file part. */
                    image_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /** @default true */
                    enhance_face?: boolean;
                    /** @default true */
                    depth_effect?: boolean;
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    image?: string;
                };
            };
        };
        responses: {
            /** @description Processed image. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "Preference-Applied": components["headers"]["Preference-Applied"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imageFaceBlur: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
                /** @description `respond-async` runs the request as a job (202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the image, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    image_url: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "image" file part. */
                    image_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    image?: string;
                };
            };
        };
        responses: {
            /** @description Processed image. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "Preference-Applied": components["headers"]["Preference-Applied"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imageLicensePlateBlur: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
                /** @description `respond-async` runs the request as a job (202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the image, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    image_url: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "image" file part. */
                    image_url?: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    image?: string;
                };
            };
        };
        responses: {
            /** @description Processed image. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "Preference-Applied": components["headers"]["Preference-Applied"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imageBlurAnything: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
                /** @description `respond-async` runs the request as a job (202). */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the image, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    image_url: string;
                    /**
                     * @description What to blur.
                     * @example car
                     */
                    prompt: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Mosaic strength when pixelated is true: larger means coarser blocks (see README for the mapping).
                     * @default 20
                     */
                    pixelation_strength?: number;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "image" file part. */
                    image_url?: string;
                    /**
                     * @description What to blur.
                     * @example car
                     */
                    prompt: string;
                    /**
                     * @description Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).
                     * @default 0.7
                     * @example 0.7
                     */
                    blur_strength?: number;
                    /**
                     * @description Pixelate (mosaic) instead of gaussian blur.
                     * @default false
                     */
                    pixelated?: boolean;
                    /**
                     * @description Mosaic strength when pixelated is true: larger means coarser blocks (see README for the mapping).
                     * @default 20
                     */
                    pixelation_strength?: number;
                    /**
                     * @description Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).
                     * @default false
                     */
                    return_detections?: boolean;
                    /**
                     * @description Detections scoring under this are neither hidden nor returned. The default, 0.25, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.
                     * @default 0.25
                     * @example 0.6
                     */
                    detection_threshold?: number;
                    /**
                     * @description Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).
                     * @default 0
                     * @example 24
                     */
                    min_size_px?: number;
                    /** @description Only detections whose box centre lies in one of these regions are hidden (and returned); at most 20. Absent: the whole image. */
                    include_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /** @description Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most 20. */
                    exclude_regions?: {
                        x: number;
                        y: number;
                        w: number;
                        h: number;
                    }[];
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    image?: string;
                };
            };
        };
        responses: {
            /** @description Processed image. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResult"];
                };
            };
            /** @description With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}. */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "Preference-Applied": components["headers"]["Preference-Applied"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VideoJob"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             *
             *     `unsupported_prompt`: The prompt or object_text names nothing the service can find; the message lists what it can.
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"] | components["schemas"]["UnsupportedPromptError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    imageNsfwDetection: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key return the first answer instead of running (and charging) again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public http(s) URL of the media, or a media URL returned by an upload endpoint. Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).
                     * @example https://example.com/photo.jpg
                     */
                    media_url: string;
                    /**
                     * @default image
                     * @enum {string}
                     */
                    media_type?: "image" | "video";
                };
                "multipart/form-data": {
                    /** @description Media URL; omit when sending the "media" file part. */
                    media_url?: string;
                    /**
                     * @default image
                     * @enum {string}
                     */
                    media_type?: "image" | "video";
                    /**
                     * Format: binary
                     * @description The media file itself (stored like an upload).
                     */
                    media?: string;
                };
            };
        };
        responses: {
            /** @description Classification result. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NsfwResult"];
                };
            };
            /**
             * @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule.
             *
             *     `invalid_json`: The body is not valid JSON.
             *
             *     `invalid_media_url`: The media URL is malformed, not http(s), or carries credentials.
             *
             *     `media_url_not_allowed`: The media URL points at localhost, a private, link-local or reserved address, or is a signed URL.
             */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"] | components["schemas"]["InvalidJsonError"] | components["schemas"]["InvalidMediaUrlError"] | components["schemas"]["MediaUrlNotAllowedError"];
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `insufficient_credits`: The account has fewer credits than the request costs; nothing ran. */
            402: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCreditsError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `idempotency_conflict`: The Idempotency-Key was already used with a different request, or that request is still running. */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdempotencyConflictError"];
                };
            };
            /**
             * @description `request_too_large`: The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part).
             *
             *     `media_too_large`: The media exceeds the byte, pixel or duration limit.
             */
            413: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RequestTooLargeError"] | components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_type`: The Content-Type header is not JSON or multipart/form-data, or does not match the body. */
            415: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaTypeError"];
                };
            };
            /**
             * @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded.
             *
             *     `corrupt_media`: The media has a supported format but cannot be decoded.
             *
             *     `media_unreachable`: The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects).
             */
            422: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"] | components["schemas"]["CorruptMediaError"] | components["schemas"]["MediaUnreachableError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
            /** @description `not_implemented`: The feature is not available on this deployment yet; nothing was charged. */
            501: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotImplementedError"];
                };
            };
            /** @description `compute_unavailable`: No compute instance could take the request; retry later. Nothing was charged. */
            503: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ComputeUnavailableError"];
                };
            };
        };
    };
    uploadPut: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token at the end of `upload_url`. */
                token: string;
            };
            cookie?: never;
        };
        /** @description The file's bytes. */
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadDone"];
                };
            };
            /** @description `invalid_request`: A field is missing, has the wrong type or breaks a rule; the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvalidRequestError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `upload_expired`: The upload URL has expired or was already used. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadExpiredError"];
                };
            };
            /** @description `media_too_large`: The media exceeds the byte, pixel or duration limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaTooLargeError"];
                };
            };
            /** @description `unsupported_media_format`: The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsupportedMediaFormatError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
        };
    };
    getResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file; Content-Type is its format (application/json for a detections document). */
            200: {
                headers: {
                    /** @description One byte range of the file can be asked for with `Range` (a video player seeks so). */
                    "Accept-Ranges": "bytes";
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "video/*": string;
                    "application/json": components["schemas"]["DetectionsDocument"];
                };
            };
            /** @description One byte range of the file, for `Range: bytes=first-last` (or `first-`, `-count`), clipped to the file. Several ranges, or one past the end, get the whole file (200). */
            206: {
                headers: {
                    /** @description One byte range of the file can be asked for with `Range` (a video player seeks so). */
                    "Accept-Ranges": "bytes";
                    /** @description The range sent and the file's size: `bytes first-last/size`. */
                    "Content-Range": string;
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "video/*": string;
                    "application/json": components["schemas"]["DetectionsDocument"];
                };
            };
            /** @description `not_found`: No such route. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
        };
    };
    getUploadedMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file; Content-Type is its format, read from its bytes. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description One byte range of the file can be asked for with `Range` (a video player seeks so). */
                    "Accept-Ranges": "bytes";
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "video/*": string;
                };
            };
            /** @description One byte range of the file, for `Range: bytes=first-last` (or `first-`, `-count`), clipped to the file. Several ranges, or one past the end, get the whole file (200). */
            206: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description One byte range of the file can be asked for with `Range` (a video player seeks so). */
                    "Accept-Ranges": "bytes";
                    /** @description The range sent and the file's size: `bytes first-last/size`. */
                    "Content-Range": string;
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "video/*": string;
                };
            };
            /** @description `unauthorized`: The API key is missing, malformed, unknown or revoked. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description `media_not_found`: The uploaded media does not exist, has expired, or belongs to another account. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MediaNotFoundError"];
                };
            };
            /** @description `method_not_allowed`: this path is called with a method it does not answer (`Allow` lists the ones it does). */
            405: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MethodNotAllowedError"];
                };
            };
            /** @description `rate_limited`: The daily request limit of the account is used up; see Retry-After. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description `internal_error`: An unexpected failure; nothing was charged. */
            500: {
                headers: {
                    /** @description Requests allowed per UTC day. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left today. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time of the next reset (00:00 UTC). */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InternalErrorError"];
                };
            };
        };
    };
}
