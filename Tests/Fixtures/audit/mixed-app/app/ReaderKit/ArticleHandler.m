#import <WebKit/WebKit.h>

static NSString *const kReaderScheme = @"reader-local";

@interface ArticleHandler : NSObject <WKURLSchemeHandler>
@end

@implementation ArticleHandler
+ (void)installIn:(WKWebViewConfiguration *)configuration {
#if TARGET_OS_SIMULATOR
    [configuration setURLSchemeHandler:[[ArticleHandler alloc] init] forURLScheme:@"reader-sim"];
#endif
#if __IPHONE_OS_VERSION_MAX_ALLOWED >= 170000
    [configuration setURLSchemeHandler:[[ArticleHandler alloc] init] forURLScheme:@"reader-extra"];
#endif
    [configuration setURLSchemeHandler:[[ArticleHandler alloc] init] forURLScheme:kReaderScheme];
}
@end
